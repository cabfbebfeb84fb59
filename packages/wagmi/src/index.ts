export { type PairlinkMetadata, type PairlinkParameters, pairlink } from './pairlink.js'
