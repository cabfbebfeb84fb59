import { type AuthPayload, type Cacao, type CacaoPayload, formatAuthMessage } from '@pairlink/protocol/v2'
import type { Hex, LocalAccount } from 'viem'
import { signCacaoMessage } from './signCacaoMessage.js'

/**
 * Who signs a sign-in: the address named in each CACAO's `iss` and how it signs the text. An EOA signs with its key
 * (EIP-191, `eip191`); a smart account's signature is checked by its contract (EIP-1271, `eip1271`; EIP-6492-wrapped
 * while not deployed).
 */
export type CacaoSigner = {
  address: string
  signMessage(message: string): Promise<{ signature: Hex; type: 'eip191' | 'eip1271' }>
}

/**
 * The wallet's account as a {@link CacaoSigner} (`signCacaoMessage`): its key (`eip191`), or a smart account
 * (`toSmartAccount`: its own address, the owner's signature in the contract's form, `eip1271`).
 */
export const accountSigner = (account: LocalAccount): CacaoSigner => ({
  address: account.address,
  signMessage: async (message) => {
    const { signature, type } = await signCacaoMessage(account, message)
    return { signature, type }
  },
})

/**
 * Signs one CACAO (CAIP-74) per chain of a one-click auth request's (narrowed) payload: `h.t` `caip122`, `p` the
 * payload's sign-in fields with `iss = did:pkh:eip155:<chain>:<address>`, `s` the signer's signature of
 * `formatAuthMessage` — the text `summarizeAuthRequest` showed the person for that address.
 *
 * @example
 * const cacaos = await buildCacaos({ payload: summary.payload, signer: accountSigner(account) })
 */
export async function buildCacaos(parameters: {
  payload: AuthPayload
  signer: CacaoSigner
}): Promise<Cacao[]> {
  const { payload, signer } = parameters
  const cacaos: Cacao[] = []
  for (const chain of payload.chains) {
    const iss = `did:pkh:${chain}:${signer.address}`
    const { signature, type } = await signer.signMessage(formatAuthMessage({ request: payload, iss }))
    cacaos.push({ h: { t: 'caip122' }, p: toCacaoPayload(payload, iss), s: { t: type, s: signature } })
  }
  return cacaos
}

/** The CACAO payload of a request's payload: its sign-in fields (not `type` nor `chains`) and `iss`. */
function toCacaoPayload(payload: AuthPayload, iss: string): CacaoPayload {
  const { domain, aud, version, nonce, iat, statement, exp, nbf, requestId, resources } = payload
  return {
    iss,
    domain,
    aud,
    version,
    nonce,
    iat,
    ...(statement !== undefined && { statement }),
    ...(exp !== undefined && { exp }),
    ...(nbf !== undefined && { nbf }),
    ...(requestId !== undefined && { requestId }),
    ...(resources !== undefined && { resources }),
  }
}
