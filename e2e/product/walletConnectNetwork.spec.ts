// Several SDK clients in one process each need a Core of their own (relay-v2.md §7).
process.env.DISABLE_GLOBAL_CORE = 'true'

import { randomUUID } from 'node:crypto'
import { createBridgeServer } from '@pairlink/bridge'
import { expect, type Page, test } from '@playwright/test'
import { SignClient } from '@walletconnect/sign-client'
import { type Hex, toHex, verifyMessage } from 'viem'
import { WebSocketServer } from 'ws'
import { ACCOUNT_0 } from './support/accounts.js'
import { PRODUCT_HOOK_TIMEOUT, type Product, startProduct } from './support/product.js'
import { answerRequest, approveSession, pasteUri } from './support/walletPage.js'

// The product with a project id (WALLETCONNECT_PROJECT_ID + WALLETCONNECT_RELAY_URL): the pages are handed that relay
// and may reach it and nothing else. The relay is Pairlink's own, serving only that project, as WalletConnect's
// serves only known ones; the dapp is the published sign-client 2.25.0 on it.
test.describe.configure({ mode: 'serial' })

const PROJECT_ID = 'fedcba9876543210fedcba9876543210'
type Dapp = Awaited<ReturnType<typeof SignClient.init>>
let relay: ReturnType<typeof createBridgeServer>
let relayUrl: string
/** A ws server on another port: an origin the pages were not handed. */
let elsewhere: WebSocketServer
let elsewhereUrl: string
let elsewhereSockets = 0
let product: Product
let dapp: Dapp
let page: Page

test.beforeAll(async ({ browser }) => {
  test.setTimeout(PRODUCT_HOOK_TIMEOUT)
  relay = createBridgeServer({ relay: { projectIds: [PROJECT_ID] } })
  relayUrl = (await relay.listen(0, '127.0.0.1')).url.replace(/^http/, 'ws')
  elsewhere = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((resolve) => elsewhere.once('listening', resolve))
  elsewhere.on('connection', () => elsewhereSockets++)
  elsewhereUrl = `ws://127.0.0.1:${(elsewhere.address() as { port: number }).port}`
  product = await startProduct({ WALLETCONNECT_PROJECT_ID: PROJECT_ID, WALLETCONNECT_RELAY_URL: relayUrl })
  dapp = await SignClient.init({
    relayUrl,
    projectId: PROJECT_ID,
    customStoragePrefix: `e2e-wc-network-${randomUUID()}`,
    logger: 'silent',
    metadata: { name: 'network dapp', description: 'sign-client', url: 'https://dapp.test', icons: [] },
  })
  page = await (await browser.newContext()).newPage()
})
test.afterAll(async () => {
  dapp?.core.heartbeat.stop()
  await dapp?.core.relayer.transportClose().catch(() => {})
  await page?.context().close()
  await product?.stop()
  await new Promise<void>((resolve) => (elsewhere ? elsewhere.close(() => resolve()) : resolve()))
  await relay?.close()
})

test('the wallet page pairs through the relay /api/config names, and signs', async () => {
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:31337'], methods: ['personal_sign'], events: [] } },
  })
  if (!uri) throw new Error('no pairing URI')
  const settled = approval()
  settled.catch(() => {})
  // The proposal is only on the stand-in relay: the page sees it only if it subscribed there.
  await pasteUri(page, product.origin, uri)
  await approveSession(page)
  const { topic } = await settled
  const message = toHex('through the network')
  const signature = dapp.request<Hex>({
    topic,
    chainId: 'eip155:31337',
    request: { method: 'personal_sign', params: [message, ACCOUNT_0] },
  })
  await answerRequest(page, 'personal_sign', 'approve')
  expect(
    await verifyMessage({ address: ACCOUNT_0, message: { raw: message }, signature: await signature }),
  ).toBe(true)
})

test("the page's policy lets it reach this site and the configured relay, and no other socket", async () => {
  await page.goto(product.origin)
  const own = product.origin.replace(/^http/, 'ws')
  const outcome = await page.evaluate(
    async (urls) => {
      const violations: string[] = []
      document.addEventListener('securitypolicyviolation', (event) => violations.push(event.blockedURI))
      const attempt = (url: string) =>
        new Promise<string>((resolve) => {
          try {
            const ws = new WebSocket(url)
            ws.onopen = () => {
              ws.close()
              resolve('open')
            }
            ws.onerror = () => resolve('error')
          } catch (error) {
            resolve(`threw ${(error as Error).name}`)
          }
        })
      const results = [] as string[]
      for (const url of urls) results.push(await attempt(url))
      return { results, violations }
    },
    [own, relayUrl, elsewhereUrl],
  )
  // This site (ws: under 'self') and the handed relay open; the other origin is blocked by the page's policy.
  expect(outcome.results.slice(0, 2)).toEqual(['open', 'open'])
  expect(outcome.results[2]).not.toBe('open')
  expect(outcome.violations).toEqual([`${elsewhereUrl}/`])
  expect(elsewhereSockets).toBe(0)
})
