import { ed25519 } from '@noble/curves/ed25519.js'
import fc from 'fast-check'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createEd25519Signer } from './ed25519Signer.js'
import { signRelayJwt } from './jwt.js'

const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length })

afterEach(() => {
  vi.restoreAllMocks()
})

test('default: WebCrypto signs where the platform has Ed25519 (Node 20 does), as noble does', async () => {
  const seed = ed25519.utils.randomSecretKey()
  const message = new TextEncoder().encode('header.payload')
  const signer = await createEd25519Signer(seed)
  expect(signer.source).toBe('webcrypto')
  expect(signer.publicKey).toEqual(ed25519.getPublicKey(seed))
  expect(await signer.sign(message)).toEqual(ed25519.sign(message, seed))
})

describe('behavior', () => {
  test('behavior: WebCrypto and the noble fallback give the same key and signature for any seed and message', async () => {
    await fc.assert(
      fc.asyncProperty(bytes(32), fc.uint8Array({ maxLength: 512 }), async (seed, message) => {
        const webCrypto = await createEd25519Signer(seed)
        const noble = await createEd25519Signer(seed, { webCrypto: false })
        expect([webCrypto.source, noble.source]).toEqual(['webcrypto', 'noble'])
        expect(webCrypto.publicKey).toEqual(noble.publicKey)
        const data = Uint8Array.from(message)
        expect(await webCrypto.sign(data)).toEqual(await noble.sign(data))
      }),
      { numRuns: 25 },
    )
  })

  test('behavior: a WebCrypto without Ed25519 loads noble, and the relay JWT is the same', async () => {
    const seed = ed25519.utils.randomSecretKey()
    const parameters = { seed, aud: 'wss://relay.example.com', sub: 'ab'.repeat(32), iat: 1_700_000_000 }
    const withWebCrypto = await signRelayJwt(parameters)
    // What Chromium before 137 answers for an algorithm it does not know.
    const importKey = vi
      .spyOn(globalThis.crypto.subtle, 'importKey')
      .mockRejectedValue(new DOMException('Unrecognized name.', 'NotSupportedError'))
    const signer = await createEd25519Signer(seed)
    expect(signer.source).toBe('noble')
    expect(await signRelayJwt(parameters)).toBe(withWebCrypto)
    expect(importKey).toHaveBeenCalled()
  })

  test('behavior: no crypto.subtle at all (a page outside a secure context) loads noble', async () => {
    const seed = ed25519.utils.randomSecretKey()
    vi.spyOn(globalThis.crypto, 'subtle', 'get').mockReturnValue(undefined as unknown as SubtleCrypto)
    const signer = await createEd25519Signer(seed)
    expect(signer.source).toBe('noble')
    expect(signer.publicKey).toEqual(ed25519.getPublicKey(seed))
  })
})
