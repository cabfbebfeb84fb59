// The Ed25519 fallback of `createEd25519Signer`, imported dynamically and only where WebCrypto has no Ed25519.
export { ed25519 } from '@noble/curves/ed25519.js'
