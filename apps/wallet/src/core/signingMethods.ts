/**
 * Methods `signRequest` (`core/signRequest.ts`) signs. A module of its own so the session request screen can list
 * them (`WALLET_METHODS`) without loading the signing code.
 */
export const SIGNING_REQUEST_METHODS = [
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'eth_signTransaction',
] as const
