/** Namespaces as a proposal lists them (CAIP-25): chains, methods and events per key. */
type ProposalNamespaces = Record<string, { chains?: string[]; methods: string[]; events: string[] }>

/**
 * Makes a published `@walletconnect/sign-client` dapp send `required` as its proposals' required namespaces, as SDKs
 * before 2.19 and other dapps still do: 2.25's `connect` folds required namespaces into optional ones and sends
 * `requiredNamespaces: {}`. Everything else stays the SDK's own (sealing, the relay call, the answer's handling): only
 * the proposal's `requiredNamespaces` is set, in its engine's private `sendProposeSession`.
 *
 * @example
 * sendRequiredNamespaces(dapp, { eip155: { chains: ['eip155:999'], methods: ['personal_sign'], events: [] } })
 * const { uri, approval } = await dapp.connect({ optionalNamespaces })
 */
export function sendRequiredNamespaces(dapp: { engine: unknown }, required: ProposalNamespaces): void {
  const engine = dapp.engine as { sendProposeSession(params: { proposal: object }): Promise<void> }
  const send = engine.sendProposeSession.bind(engine)
  engine.sendProposeSession = (params) =>
    send({ ...params, proposal: { ...params.proposal, requiredNamespaces: required } })
}
