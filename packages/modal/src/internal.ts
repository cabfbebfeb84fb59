// `@pairlink/modal/internal`: the modal's own building blocks (the copy link, the QR encoder and its SVG, the wallet
// list and its monogram tiles), for the modal's tests and benches; no semver promise covers this entry.

export { type CopyLink, type CreateCopyLinkParameters, createCopyLink } from './CopyLink/createCopyLink.js'
export { type EncodedQr, encodeQr, QR_LEVEL_M_MAX_BYTES } from './QrCode/encodeQr.js'
export { renderQrCode } from './QrCode/renderQrCode.js'
export {
  type CreateWalletListParameters,
  createWalletList,
  SEARCH_DEBOUNCE_MS,
  type WalletList,
} from './WalletList/createWalletList.js'
export { getMonogram, type Monogram } from './WalletList/getMonogram.js'
