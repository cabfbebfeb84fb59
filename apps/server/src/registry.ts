// The server's wallet list (`/registry/wallets.json` and `/registry/logos/*`); the parts live in ./registry/.
export { createWalletList, type WalletList } from './registry/createWalletList.js'
export { REFERENCE_WALLET_ID } from './registry/logos.js'
export type { ListingEntry } from './registry/toListing.js'
export { readWalletsFile, WalletsFileError } from './registry/walletsFile.js'
