import { createServer, type IncomingMessage } from 'node:http'
import { afterEach, describe, expect, test } from 'vitest'
import { runScript } from '../test/bundle.js'
import { connect } from '../test/client.js'
import { startBridge } from '../test/server.js'
import { WebhookRefusedError } from './errors.js'
import { silentLogger } from './logger.js'
import { createBridgeMetrics } from './metrics.js'
import { createWebhookNotifier, isPrivateAddress, type WebhookNotifierParameters } from './webhooks.js'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A push server on loopback; `hang` makes it never answer. */
async function receiver(hang = false) {
  const calls: { body: string; contentType: string | undefined; path: string | undefined }[] = []
  const pending: IncomingMessage[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      calls.push({ body, contentType: req.headers['content-type'], path: req.url })
      if (hang) pending.push(req)
      else res.end('{"success":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  const { port } = server.address() as { port: number }
  return { calls, url: `http://127.0.0.1:${port}/push`, port }
}

function notifier(parameters: Partial<WebhookNotifierParameters> = {}) {
  const counts = createBridgeMetrics().counts
  const created = createWebhookNotifier({ counts, logger: silentLogger, ...parameters })
  cleanups.push(() => created.close())
  return { notifier: created, counts }
}

test('default', async () => {
  const push = await receiver()
  const { notifier: n, counts } = notifier({ allowHosts: ['127.0.0.1'] })
  await n.check(push.url)
  n.notify([push.url], 'topic-1')
  await expect
    .poll(() => push.calls)
    .toEqual([{ body: '{"topic":"topic-1"}', contentType: 'application/json', path: '/push' }])
  expect(counts.webhookCalls).toBe(1)
  await expect.poll(() => counts.webhookFailures).toBe(0)
})

describe('behavior', () => {
  test('behavior: isPrivateAddress covers loopback, private, link-local, unique-local and CGNAT ranges', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, true])
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '2001:4860:4860::8888',
      'example.org',
    ])
      expect([address, isPrivateAddress(address)]).toEqual([address, false])
  })

  test('behavior: allow-list entries admit a host name, an address or a range', async () => {
    await notifier({ allowHosts: ['localhost'] }).notifier.check('http://localhost:1/')
    await notifier({ allowHosts: ['10.0.0.7'] }).notifier.check('http://10.0.0.7/')
    await notifier({ allowHosts: ['10.0.0.0/8'] }).notifier.check('https://10.9.9.9/push')
    await notifier({ allowHosts: ['::1'] }).notifier.check('http://[::1]:8080/')
    await expect(notifier({ allowHosts: ['10.0.0.7'] }).notifier.check('http://10.0.0.8/')).rejects.toThrow(
      WebhookRefusedError,
    )
  })

  test('behavior: a webhook that hangs does not delay the relay', async () => {
    const push = await receiver(true)
    const { url, counts, close } = await startBridge({
      webhooks: { allowHosts: ['127.0.0.1'], timeoutMs: 300 },
    })
    cleanups.push(close)
    const response = await fetch(`${url}/subscribe`, {
      method: 'POST',
      body: JSON.stringify({ topic: 't', webhook: push.url }),
    })
    expect(response.status).toBe(200)
    const dapp = await connect(url)
    const wallet = await connect(url)
    wallet.sub('t')
    await wallet.sync()
    const started = performance.now()
    const frame = dapp.pub('t', 'x', false)
    expect(await wallet.next(250)).toBe(frame)
    expect(performance.now() - started).toBeLessThan(250)
    await expect.poll(() => push.calls.length).toBe(1)
    await expect.poll(() => counts.webhookFailures, { timeout: 2_000 }).toBe(1)
    // silent pubs call no webhook; a frame without `silent` (old clients) does.
    dapp.pub('t', 'y', true)
    dapp.send({ topic: 't', type: 'pub', payload: 'z' })
    await expect.poll(() => push.calls.length).toBe(2)
    await dapp.close()
    await wallet.close()
  })
})

describe('error', () => {
  test('error: private, loopback and link-local hosts are refused unless allow-listed', async () => {
    const { notifier: n } = notifier()
    for (const url of [
      'http://127.0.0.1/',
      'http://localhost:3000/',
      'http://[::1]/',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.1.1/',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
    ])
      await expect(n.check(url), url).rejects.toThrow(WebhookRefusedError)
  })

  test('error: POST /subscribe refuses a private webhook with 400', async () => {
    const { url, counts, close } = await startBridge()
    cleanups.push(close)
    const response = await fetch(`${url}/subscribe`, {
      method: 'POST',
      body: JSON.stringify({ topic: 't', webhook: 'http://127.0.0.1:6379/' }),
    })
    expect(response.status).toBe(400)
    expect((await response.json()).message).toMatch(/^Error: webhook host not allowed/)
    expect(counts.webhooksRefused).toBe(1)
  })

  test('error: a call to a host that now resolves privately is refused at call time', async () => {
    const push = await receiver()
    const { notifier: n, counts } = notifier()
    n.notify([push.url, `http://localhost:${push.port}/push`], 't')
    await expect.poll(() => counts.webhookFailures).toBe(2)
    expect(push.calls).toEqual([])
  })

  test('error: a call that times out is counted as a failure', async () => {
    const push = await receiver(true)
    const { notifier: n, counts } = notifier({ allowHosts: ['127.0.0.1'], timeoutMs: 100 })
    n.notify([push.url], 't')
    await expect.poll(() => counts.webhookFailures).toBe(1)
  })

  test('error: a hung call is aborted at its time-out although garbage was collected meanwhile', async () => {
    // A fresh process with --expose-gc: the time-out must not hang on an object only a weak reference keeps.
    const { stdout } = await runScript(
      `
      import { createServer } from 'node:http'
      import { createBridgeMetrics } from '@pairlink/bridge/metrics'
      import { silentLogger } from '@pairlink/bridge/logger'
      import { createWebhookNotifier } from '@pairlink/bridge/webhooks'
      const hung = []
      const server = createServer((req) => hung.push(req))
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
      const counts = createBridgeMetrics().counts
      const notifier = createWebhookNotifier({ counts, logger: silentLogger, timeoutMs: 300, allowHosts: ['127.0.0.1'] })
      notifier.notify(['http://127.0.0.1:' + server.address().port + '/push'], 't')
      const started = Date.now()
      while (hung.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      while (counts.webhookFailures === 0 && Date.now() - started < 3000) {
        globalThis.gc()
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      console.log(JSON.stringify({ failures: counts.webhookFailures, ms: Date.now() - started }))
      server.closeAllConnections()
      server.close()
      await notifier.close()
      `,
      ['--expose-gc'],
    )
    const result = JSON.parse(stdout) as { failures: number; ms: number }
    expect(result.failures).toBe(1)
    expect(result.ms).toBeLessThan(2_000)
  })

  test('error: calls beyond maxInFlight are dropped and counted', async () => {
    const push = await receiver(true)
    const { notifier: n, counts } = notifier({ allowHosts: ['127.0.0.1'], maxInFlight: 2, timeoutMs: 1_000 })
    n.notify([push.url, push.url, push.url], 't')
    expect(counts.webhookCalls).toBe(2)
    expect(counts.webhookFailures).toBe(1)
  })

  test('error: invalid URLs are refused', async () => {
    const { notifier: n } = notifier()
    for (const url of ['not a url', '/relative', 'ftp://example.org/', 'http://user:pw@example.org/'])
      await expect(n.check(url)).rejects.toThrow(/Webhook/)
  })
})
