import { METHODS, selectMethods } from '@pairlink/protocol'

/**
 * Methods `signRequest` (`core/signRequest.ts`) signs (`wallet: 'sign'` in protocol's `METHODS`). A module of its own
 * so the session request screen can list them (`WALLET_METHODS`) without loading the signing code.
 */
export const SIGNING_REQUEST_METHODS = selectMethods(METHODS, 'wallet', 'sign')
