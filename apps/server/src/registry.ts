// The server's wallet list (`/registry/wallets.json` and `/registry/logos/*`); the parts live in ./registry/.
export {
  type CreateWalletListParameters,
  createWalletList,
  type WalletList,
  type WalletListDocument,
} from './registry/createWalletList.js'
export type { ExplorerParameters } from './registry/explorer.js'
export { LOGOS_PATH, REFERENCE_WALLET_ID } from './registry/logos.js'
export { type ListingEntry, toListing, type WcWallet } from './registry/toListing.js'
export { readWalletsFile, WalletsFileError } from './registry/walletsFile.js'
