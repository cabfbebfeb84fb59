import { decrypt, parseUri } from '@pairlink/protocol'
import { expect, test } from '@playwright/test'
import WebSocket from 'ws'
import { decodeQr } from './support/qr.js'
import { startServer } from './support/server.js'

let server: Awaited<ReturnType<typeof startServer>>
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server.close()
})

/** What a wallet receives on `topic` from the bridge: the first message, queued or live. */
async function receiveOnTopic(bridgeUrl: string, topic: string): Promise<{ payload: string }> {
  const socket = new WebSocket(bridgeUrl.replace(/^http/, 'ws'))
  try {
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    const message = new Promise<string>((resolve) => socket.once('message', (data) => resolve(String(data))))
    socket.send(JSON.stringify({ topic, type: 'sub', payload: '', silent: true }))
    const frame = JSON.parse(await message) as { topic: string; type: string; payload: string }
    expect(frame).toMatchObject({ topic, type: 'pub' })
    return frame
  } finally {
    socket.close()
  }
}

test("v1: @walletconnect/client@1.8.0 drives our modal as its qrcodeModal; closing rejects with v1's text", async ({
  page,
}) => {
  await page.goto(`${server.url}/v1?bridge=${encodeURIComponent(server.bridgeUrl)}`)
  await expect(page.locator('#walletconnect-qrcode-text')).toBeVisible()
  const uri = await page.evaluate(() => window.v1.uri())
  expect(uri).toMatch(/^wc:[0-9a-f-]{36}@1\?bridge=.+&key=[0-9a-f]{64}$/)
  expect(await decodeQr(page.locator('svg.walletconnect-qrcode__image'))).toBe(uri)
  // A wallet subscribed to the URI's handshake topic on Pairlink's bridge gets v1's session request, and the
  // URI's key opens it.
  const { topic, key } = parseUri(uri)
  const { payload } = await receiveOnTopic(server.bridgeUrl, topic)
  expect(await decrypt(payload, key)).toMatchObject({ method: 'wc_sessionRequest' })
  await page.screenshot({ path: 'e2e/screenshots/modal-v1-interop.png', animations: 'disabled' })

  await page.locator('#walletconnect-qrcode-close').click()
  expect(await page.evaluate(() => window.v1.result)).toBe('User close QRCode Modal')
  expect(await page.evaluate(() => window.v1.modalClosed)).toBe(1)
  await expect(page.locator('#walletconnect-wrapper')).toHaveCount(0)
})
