import { BaseError } from '@pairlink/protocol'

/**
 * The wallet registry could not be fetched or did not have the `{ listings, count }` shape. The modal shows
 * `Something went wrong` with a retry; the QR code stays one click away.
 */
export class RegistryError extends BaseError {
  static override code = 'ERR_MODAL_REGISTRY'
  override name = 'RegistryError'
}

/** `open()` or `createModal()` ran where there is no `document` (Node, a worker). */
export class ModalEnvironmentError extends BaseError {
  static override code = 'ERR_MODAL_NO_DOM'
  override name = 'ModalEnvironmentError'
  constructor() {
    super('The QR-code modal needs a browser document')
  }
}

/** The URI is too long to fit in a QR code (more than 2953 bytes, the limit of a version 40 symbol). */
export class QrCodeError extends BaseError {
  static override code = 'ERR_MODAL_QR_OVERFLOW'
  override name = 'QrCodeError'
}
