import { fileURLToPath } from 'node:url'
import { createBridge, createMemoryBackend } from '@pairlink/bridge'
import { createClient } from '@pairlink/client'
import { pino } from 'pino'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { createAppServer } from '../apps/server/src/createAppServer.js'
import { createWalletList } from '../apps/server/src/registry.js'
import { checkProposal } from '../apps/wallet/src/core/checkProposal.js'
import { buildNamespaces } from '../apps/wallet/src/core/namespaces.js'
import { SIGNING_REQUEST_METHODS } from '../apps/wallet/src/core/signingMethods.js'
import { getInternal } from '../packages/client/src/session.js'
import { createProvider } from '../packages/provider/src/createProvider.js'
import { PROPOSED_METHODS } from '../packages/provider/src/v2/namespaces.js'
import { createFakeClient } from '../packages/provider/test/fakeClient.js'
import { createFakeNode } from '../packages/provider/test/fakeNode.js'

// "How to add a method" (packages/provider/README.md), checked: methods added to the rows of protocol's table
// (`methods.ts`) and nowhere else reach every list made from them. Those rows are the only thing changed here;
// everything else, the table made from them included, is the packages' and the apps' own code.
vi.mock(import('../packages/protocol/src/methods.js'), async (importOriginal) => {
  const actual = await importOriginal()
  return {
    ...actual,
    APPROVAL_METHODS: {
      ...actual.APPROVAL_METHODS,
      // A method the person approves and the reference wallet signs.
      fake_sign: 'sign',
      // A mistake: approved in the wallet, yet also listed as a read below.
      fake_mislabeled: false,
    } as typeof actual.APPROVAL_METHODS,
    ANSWERED_METHODS: {
      ...actual.ANSWERED_METHODS,
      // A read the server forwards.
      fake_read: { node: 'read' },
      fake_mislabeled: { node: 'read' },
    } as typeof actual.ANSWERED_METHODS,
  }
})

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const node = await createFakeNode((call) => ({ result: `node:${call.method}` }))
afterAll(() => node.close())

describe('a method added to the table', () => {
  test('behavior: the v1 client publishes an approved one with silent: false (a push to the wallet)', () => {
    const client = createClient({ bridge: 'http://127.0.0.1:1', storage: false })
    expect(getInternal(client).signingMethods.has('fake_sign')).toBe(true)
    expect(getInternal(client).signingMethods.has('fake_read')).toBe(false)
  })

  test('behavior: the provider sends an approved one to the wallet, a read to the node', async () => {
    const { client, fake } = createFakeClient({ connected: true, chainId: 1, accounts: [ALICE] })
    const provider = createProvider({ client, chainId: 1, rpc: { 1: node.url } })
    await provider.enable()
    expect(await provider.request({ method: 'fake_sign', params: ['0x00'] })).toBe('0xfake_sign')
    expect(await provider.request({ method: 'fake_read', params: [] })).toBe('node:fake_read')
    expect(fake.requests.map((request) => request.method)).toEqual(['fake_sign'])
    // (The provider's block polling reads from the node too.)
    expect(node.calls.map((call) => call.method).filter((method) => method.startsWith('fake_'))).toEqual([
      'fake_read',
    ])
    await provider.disconnect()
  })

  test('behavior: a v2 dapp proposes an approved one', () => {
    expect(PROPOSED_METHODS).toContain('fake_sign')
    expect(PROPOSED_METHODS).not.toContain('fake_read')
  })

  test("behavior: the server's /rpc forwards a read, and refuses what the person approves even marked a read", async () => {
    const bridge = createBridge({ backend: createMemoryBackend(), logger: pino({ level: 'silent' }) })
    await bridge.start()
    const data = (path: string) => fileURLToPath(new URL(`../apps/server/data/${path}`, import.meta.url))
    const app = createAppServer({
      bridge,
      rpcUrl: node.url,
      chainId: 31337,
      registry: createWalletList({ snapshotFile: data('wallets.json'), logosDir: data('logos') }),
      webDir: '/nonexistent',
      walletDir: '/nonexistent',
    })
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/rpc`
    const call = async (method: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      })
      return await response.json()
    }
    expect(await call('fake_read')).toEqual({ jsonrpc: '2.0', id: 1, result: 'node:fake_read' })
    for (const method of ['fake_sign', 'fake_mislabeled'])
      expect(await call(method)).toMatchObject({
        error: { code: -32601, message: `Method ${method} is not available through /rpc` },
      })
    await app.close()
    await bridge.close()
  })

  test('behavior: the reference wallet lists one it signs, grants it and accepts a proposal that requires it', () => {
    expect(SIGNING_REQUEST_METHODS).toContain('fake_sign')
    expect(buildNamespaces({ chains: [1], address: ALICE }).eip155?.methods).toContain('fake_sign')
    const proposal = (methods: string[]) => ({
      requiredNamespaces: { eip155: { chains: ['eip155:1'], methods, events: [] } },
    })
    expect(checkProposal(proposal(['fake_sign']), new Set([1]))).toBeUndefined()
    expect(checkProposal(proposal(['fake_read']), new Set([1]))?.error.code).toBe(5101)
  })
})
