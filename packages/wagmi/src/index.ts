export { InjectedWalletChosenError } from './errors.js'
export type { ChosenWallet } from './modalAdapter.js'
export { type PairlinkMetadata, type PairlinkParameters, pairlink } from './pairlink.js'
