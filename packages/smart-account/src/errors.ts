import { BaseError } from '@pairlink/protocol'

/** The account factory or a smart account could not be deployed: the node is unreachable, refused, or lacks a part. */
export class SmartAccountDeployError extends BaseError {
  static override code = 'ERR_SMART_ACCOUNT_DEPLOY'
  override name = 'SmartAccountDeployError'
}
