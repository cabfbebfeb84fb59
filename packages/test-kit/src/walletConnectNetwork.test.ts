// Both peers are the published v2 SDK in one process: each needs its own Core.
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomBytes, randomUUID } from 'node:crypto'
import { Agent, request as httpsRequest } from 'node:https'
import { createMemoryStorage } from '@pairlink/client'
import { approve, connect, createSignClient, pair, request, respond } from '@pairlink/client/v2'
import { RELAY_REFUSAL_CLOSE_CODE, signRelayJwt } from '@pairlink/protocol/v2'
import { WalletKit } from '@reown/walletkit'
import { SignClient } from '@walletconnect/sign-client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { waitFor } from './waitFor.js'
import { startWalletConnectNetwork, type WalletConnectNetwork } from './walletConnectNetwork.js'

const PROJECT = '0123456789abcdef0123456789abcdef'
const SITE_PROJECT = 'fedcba9876543210fedcba9876543210'

let network: WalletConnectNetwork
beforeAll(async () => {
  network = await startWalletConnectNetwork({
    projects: { [PROJECT]: [], [SITE_PROJECT]: ['https://app.example'] },
  })
})
afterAll(() => network?.close())

/** Opens a v2 socket as the SDK does; resolves with how it ended (or `open` once open, then closes it). */
async function attempt(url: string, options: { projectId?: string; origin?: string; aud?: string } = {}) {
  const token = await signRelayJwt({ seed: randomBytes(32), aud: options.aud ?? url })
  const query = new URLSearchParams({ auth: token, ua: 'wc-2/js-2.25.0/linux/node' })
  if (options.projectId) query.set('projectId', options.projectId)
  const ws = new WebSocket(`${url}?${query}`, {
    ...(options.origin ? { origin: options.origin } : {}),
    ca: network.certificate,
  })
  return new Promise<{ opened: boolean; code: number; reason: string }>((resolve, reject) => {
    let opened = false
    ws.once('open', () => {
      opened = true
      // A refusal closes right after the upgrade: its close frame comes before the pong of a ping sent on open.
      ws.ping()
    })
    ws.once('pong', () => ws.close(1000, 'done'))
    ws.once('close', (code, reason) => resolve({ opened, code, reason: reason.toString() }))
    ws.once('error', reject)
  })
}

describe('relay', () => {
  test('default: the published sign-client dapp and WalletKit wallet pair through the plain URL', async () => {
    const init = (name: string) =>
      SignClient.init({
        relayUrl: network.plainRelayUrl,
        projectId: PROJECT,
        customStoragePrefix: `${name}-${randomUUID()}`,
        logger: 'silent',
        metadata: { name, description: name, url: `https://${name}.example`, icons: [] },
      })
    const dapp = await init('dapp')
    const chain = 'eip155:1'
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: { eip155: { chains: [chain], methods: ['personal_sign'], events: [] } },
    })
    if (!uri) throw new Error('no pairing URI')
    const settled = approval()
    const CoreClass = dapp.core.constructor as new (options: Record<string, unknown>) => typeof dapp.core
    const core = new CoreClass({
      relayUrl: network.plainRelayUrl,
      projectId: PROJECT,
      customStoragePrefix: `walletkit-${randomUUID()}`,
      logger: 'silent',
    })
    const wallet = await WalletKit.init({
      core: core as Parameters<typeof WalletKit.init>[0]['core'],
      metadata: { name: 'walletkit', description: 'walletkit', url: 'https://walletkit.example', icons: [] },
    })
    const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    wallet.on('session_proposal', ({ id }) => {
      wallet
        .approveSession({
          id,
          namespaces: {
            eip155: {
              chains: [chain],
              accounts: [`${chain}:${address}`],
              methods: ['personal_sign'],
              events: [],
            },
          },
        })
        .catch(() => {})
    })
    try {
      await wallet.pair({ uri })
      const session = await settled
      expect(session.namespaces.eip155?.accounts).toEqual([`${chain}:${address}`])
      // Every upgrade of both SDKs was admitted, and every request of theirs passed the id and size rules.
      expect(network.upgrades.filter((u) => u.projectId === PROJECT).map((u) => u.outcome)).toContain('open')
      expect(network.upgrades.every((u) => u.outcome === 'open')).toBe(true)
      expect(network.relay.counts.invalid).toBe(0)
    } finally {
      for (const client of [dapp, wallet.engine.signClient]) {
        client.core.heartbeat.stop()
        await client.core.relayer.transportClose().catch(() => {})
      }
    }
  })

  test("default: Pairlink's own v2 dapp and wallet pass every rule (ids, audience, sizes) through the plain URL", async () => {
    const invalid = network.relay.counts.invalid
    const opened = network.upgrades.length
    const client = (name: string) =>
      createSignClient({
        relayUrl: network.plainRelayUrl,
        projectId: PROJECT,
        storage: createMemoryStorage(),
        metadata: { name, description: name, url: `https://${name}.example`, icons: [] },
      })
    const dapp = client('dapp')
    const wallet = client('wallet')
    try {
      const chain = 'eip155:1'
      const { uri, approval } = await connect(dapp, {
        optionalNamespaces: { eip155: { chains: [chain], methods: ['personal_sign'], events: [] } },
      })
      wallet.on('session_proposal', ({ id }) => {
        const accounts = [`${chain}:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266`]
        approve(wallet, {
          id,
          namespaces: { eip155: { chains: [chain], accounts, methods: ['personal_sign'], events: [] } },
        }).catch(() => {})
      })
      wallet.on('session_request', ({ id, topic }) => {
        respond(wallet, { topic, response: { id, jsonrpc: '2.0', result: '0x1234' } }).catch(() => {})
      })
      await pair(wallet, { uri: uri as string })
      const session = await approval()
      const answer = request(dapp, {
        topic: session.topic,
        chainId: chain,
        request: { method: 'personal_sign', params: ['0x00'] },
      })
      expect(await answer).toBe('0x1234')
      expect(network.upgrades.slice(opened).map((u) => u.outcome)).toEqual(['open', 'open'])
      expect(network.relay.counts.invalid).toBe(invalid)
    } finally {
      await Promise.all([dapp.close(), wallet.close()])
    }
  })

  test("error: an unknown, a missing project id and a disallowed Origin are closed with 3000 and the hosted relay's words", async () => {
    const url = network.plainRelayUrl
    const code = RELAY_REFUSAL_CLOSE_CODE
    expect(await attempt(url, { projectId: 'ffffffffffffffffffffffffffffffff' })).toEqual({
      opened: true,
      code,
      reason: 'Project not found',
    })
    expect(await attempt(url)).toEqual({ opened: true, code, reason: 'Project ID is missing' })
    const site = { projectId: SITE_PROJECT }
    expect(await attempt(url, { ...site, origin: 'https://evil.example' })).toEqual({
      opened: true,
      code,
      reason: 'Unauthorized: origin not allowed',
    })
    // The project's own site, a local page and a client without Origin are let in, over TLS too.
    for (const origin of ['https://app.example', 'http://localhost:5173', undefined])
      expect(await attempt(network.localRelayUrl, { ...site, ...(origin ? { origin } : {}) })).toMatchObject({
        code: 1000,
      })
    const refused = network.upgrades.filter((u) => u.outcome === 'refused').map((u) => u.reason)
    expect(refused).toEqual(
      expect.arrayContaining([
        'Project not found',
        'Project ID is missing',
        'Unauthorized: origin not allowed',
      ]),
    )
    expect(JSON.stringify(network.upgrades)).not.toMatch(/eyJ/)
  })

  test('error: a token for another relay, even on the same host and port, is closed with 3000', async () => {
    const url = network.plainRelayUrl
    const wrong = await attempt(url, { projectId: PROJECT, aud: `${url}/` })
    expect(wrong).toMatchObject({ code: RELAY_REFUSAL_CLOSE_CODE, reason: /^Unauthorized: .*audience/ })
    // The real name is one of the relay's own.
    expect(await attempt(url, { projectId: PROJECT, aud: network.relayUrl })).toMatchObject({ code: 1000 })
  })
})

describe('explorer', () => {
  const get = (path: string) =>
    new Promise<{ status: number; type: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = httpsRequest(`${network.localExplorerUrl}${path}`, {
        agent: new Agent({ ca: network.certificate }),
      })
      req.once('response', (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers['content-type'],
            body: Buffer.concat(chunks),
          }),
        )
      })
      req.once('error', reject)
      req.end()
    })

  test('default: getWallets pages the wallets; getWalletImage serves a PNG; plain http serves the same', async () => {
    const first = await get(`/getWallets?projectId=${PROJECT}&page=1&entries=5&st=wcm&sv=1`)
    expect(first.status).toBe(200)
    const page1 = JSON.parse(first.body.toString())
    expect(page1.count).toBeGreaterThanOrEqual(8)
    expect(page1.data).toHaveLength(5)
    expect(page1.data[0]).toMatchObject({
      name: 'MetaMask',
      rdns: 'io.metamask',
      image_id: expect.any(String),
    })
    const plain = await fetch(`${network.plainExplorerUrl}/getWallets?projectId=${PROJECT}&page=2&entries=5`)
    const page2 = (await plain.json()) as { data: { id: string }[] }
    expect(page2.data).toHaveLength(page1.count - 5)
    expect(page2.data.map((w) => w.id)).not.toContain(page1.data[0].id)

    const image = await get(`/getWalletImage/${page1.data[0].image_id}?projectId=${PROJECT}`)
    expect(image).toMatchObject({ status: 200, type: 'image/png' })
    expect(image.body.subarray(1, 4).toString()).toBe('PNG')
  })

  test('error: a missing or unknown projectId gets 403 JSON; fail(true) makes every request 500', async () => {
    const before = network.explorerRequests.length
    for (const query of ['', '?projectId=ffffffffffffffffffffffffffffffff']) {
      const refused = await get(`/getWallets${query}`)
      expect(refused.status).toBe(403)
      expect(JSON.parse(refused.body.toString())).toHaveProperty('message')
    }
    network.fail(true)
    try {
      expect((await get(`/getWallets?projectId=${PROJECT}`)).status).toBe(500)
      expect((await fetch(`${network.plainExplorerUrl}/getWallets?projectId=${PROJECT}`)).status).toBe(500)
    } finally {
      network.fail(false)
    }
    expect((await get(`/getWallets?projectId=${PROJECT}`)).status).toBe(200)
    await waitFor(() => network.explorerRequests.length === before + 5, { message: 'requests counted' })
    expect(network.explorerRequests.slice(before).map((r) => r.status)).toEqual([403, 403, 500, 500, 200])
  })

  test('default: chromiumArgs map the real names to the stand-ins', () => {
    const [rules, ignore] = network.chromiumArgs
    expect(rules).toBe(
      `--host-resolver-rules=MAP relay.walletconnect.org 127.0.0.1:${network.relayPort}, ` +
        `MAP relay.walletconnect.com 127.0.0.1:${network.relayPort}, MAP api.web3modal.org 127.0.0.1:${network.explorerPort}`,
    )
    expect(ignore).toBe('--ignore-certificate-errors')
  })
})
