import { type ConnectParameters, connect } from '../actions/connect.js'
import { type CreateSessionParameters, createSession } from '../actions/createSession.js'
import { type RequestOptions, type RequestParameters, request } from '../actions/request.js'
import { type SendTransactionParameters, sendTransaction } from '../actions/sendTransaction.js'
import { type SignMessageParameters, signMessage } from '../actions/signMessage.js'
import { type SignPersonalMessageParameters, signPersonalMessage } from '../actions/signPersonalMessage.js'
import { type SignTransactionParameters, signTransaction } from '../actions/signTransaction.js'
import { type SignTypedDataParameters, signTypedData } from '../actions/signTypedData.js'
import type { Client } from '../createClient.js'

/**
 * The dapp's members: pair with a wallet and send it requests. `request` lives here, not in the bare client: a
 * wallet answers requests (`approveRequest`) and has nothing to ask of a dapp in v1, so a wallet bundle need not
 * carry it (the stand-alone {@link request} still works on any client).
 */
export type DappActions = {
  /**
   * Creates a session request, shows its URI in the modal and resolves with the session when the wallet approves
   * (see {@link connect}). Rejects with `User close QRCode Modal` when the person closes the modal.
   */
  connect: (parameters?: ConnectParameters) => ReturnType<typeof connect>
  /** Publishes a session request and resolves with its `wc:` URI, for apps that show it themselves (see {@link createSession}). */
  createSession: (parameters?: CreateSessionParameters) => ReturnType<typeof createSession>
  /**
   * Sends a JSON-RPC request to the wallet and resolves with its result, typed by `result` (see {@link request}).
   *
   * @example
   * const accounts = await dapp.request<string[]>({ method: 'eth_requestAccounts' })
   */
  request: <result = unknown>(parameters: RequestParameters, options?: RequestOptions) => Promise<result>
  /** Asks the wallet to sign and broadcast a transaction; resolves with its hash (see {@link sendTransaction}). */
  sendTransaction: (
    parameters: SendTransactionParameters,
    options?: RequestOptions,
  ) => ReturnType<typeof sendTransaction>
  /** Asks the wallet to sign a transaction without sending it (see {@link signTransaction}). */
  signTransaction: (
    parameters: SignTransactionParameters,
    options?: RequestOptions,
  ) => ReturnType<typeof signTransaction>
  /** Asks the wallet for an `eth_sign` signature of `[address, data]` (see {@link signMessage}). */
  signMessage: (parameters: SignMessageParameters, options?: RequestOptions) => ReturnType<typeof signMessage>
  /** Asks the wallet for a `personal_sign` signature of `[data, address]` (see {@link signPersonalMessage}). */
  signPersonalMessage: (
    parameters: SignPersonalMessageParameters,
    options?: RequestOptions,
  ) => ReturnType<typeof signPersonalMessage>
  /** Asks the wallet for an EIP-712 signature of `[address, typedData]` (see {@link signTypedData}). */
  signTypedData: (
    parameters: SignTypedDataParameters,
    options?: RequestOptions,
  ) => ReturnType<typeof signTypedData>
}

/** A client extended with {@link dappActions}: what `createClient(parameters).extend(dappActions)` returns. */
export type DappClient = Client<DappActions>

/**
 * Decorates a client with the dapp's actions, for `client.extend(dappActions)`. Importing it pulls in no wallet
 * action.
 *
 * @example
 * const dapp = createClient({ bridge: 'https://bridge.example', modal }).extend(dappActions)
 * const { accounts } = await dapp.connect({ chainId: 1 })
 */
export function dappActions(client: Client): DappActions {
  return {
    connect: (parameters) => connect(client, parameters),
    createSession: (parameters) => createSession(client, parameters),
    request: (parameters, options) => request(client, parameters, options),
    sendTransaction: (parameters, options) => sendTransaction(client, parameters, options),
    signTransaction: (parameters, options) => signTransaction(client, parameters, options),
    signMessage: (parameters, options) => signMessage(client, parameters, options),
    signPersonalMessage: (parameters, options) => signPersonalMessage(client, parameters, options),
    signTypedData: (parameters, options) => signTypedData(client, parameters, options),
  }
}
