import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createConnection } from 'node:net'
import { fileURLToPath } from 'node:url'
import { freePort, waitFor } from '@pairlink/test-kit'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { startRedisSentinel } from '@pairlink/test-kit/redis-sentinel'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { connect } from '../test/client.js'
import { signRelayJwt } from '../test/relayJwt.js'
import { account, chainId, closeClients, pairClients } from '../test/signClient.js'

// The CLI as an operator runs it: a child process, flags and env vars, logs on stdout, SIGTERM.
const root = fileURLToPath(new URL('../../..', import.meta.url))
const main = fileURLToPath(new URL('./main.ts', import.meta.url))

beforeAll(() => {
  // main.ts runs from sources through tsx, but resolves @pairlink/protocol from its build.
  if (!existsSync(`${root}packages/protocol/dist/index.js`))
    execFileSync(`${root}node_modules/.bin/tsc`, ['-b', 'packages/protocol'], { cwd: root })
})

const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children)
    if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL')
})

async function run(args: string[], env: Record<string, string> = {}) {
  const { REDIS_URL: _, ...inherited } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    cwd: root,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.add(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`CLI did not start: ${stderr}${stdout}`)), 15_000)
    child.stdout?.on('data', () => {
      const line = stdout.split('\n').find((entry) => entry.includes('bridge listening'))
      if (line) {
        clearTimeout(timer)
        resolve(JSON.parse(line).url)
      }
    })
    exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`CLI exited: ${stderr}${stdout}`))
    })
  })
  listening.catch(() => {})
  return {
    listening,
    exited,
    output: () => stdout + stderr,
    /** Closes the reading ends of its stdout and stderr, as a log reader that died does. */
    dropOutput: () => {
      child.stdout?.destroy()
      child.stderr?.destroy()
    },
    pid: child.pid,
    stop: () => {
      if (child.pid) process.kill(child.pid, 'SIGTERM')
      return exited
    },
  }
}

test('behavior: SIGTERM stops it after the reader of its logs is gone (writes to a dead pipe)', async () => {
  const cli = await run(['--port', String(await freePort())], { LOG_LEVEL: 'debug' })
  const url = await cli.listening
  cli.dropOutput()
  // A request logs at debug: the first write to the dead pipe happens before the signal, not only in the shutdown.
  await fetch(`${url}/hello`)
  expect(await cli.stop()).toBe(0)
})

test('default', async () => {
  const port = await freePort()
  const cli = await run(['--port', String(port)], { LOG_LEVEL: 'debug', BRIDGE_TTL: '60' })
  const url = await cli.listening
  expect(url).toBe(`http://127.0.0.1:${port}`)
  expect(await (await fetch(`${url}/hello`)).text()).toBe('Hello World, this is Pairlink Bridge v0.1.0')
  const metrics = await (await fetch(`${url}/metrics`)).text()
  expect(metrics).toContain('pairlink_bridge_process_resident_memory_bytes')

  const a = await connect(url)
  const b = await connect(url)
  b.sub('topic')
  const secret = 'PAYLOAD-MUST-NOT-BE-LOGGED'
  a.pub('topic', secret)
  await b.next()
  a.send('not json')
  expect(await cli.stop()).toBe(0)
  expect(await a.closed).toEqual({ code: 1001, reason: 'Server shutting down' })
  expect(cli.output()).toContain('shutting down')
  expect(cli.output()).not.toContain(secret)
})

describe('behavior', () => {
  test('behavior: the CLI is a v2 relay on the same port: the published SDK pairs and signs through it, offline', async () => {
    const cli = await run(['--port', String(await freePort())])
    const relayUrl = (await cli.listening).replace('http', 'ws')
    try {
      const { dapp, wallet, session } = await pairClients(relayUrl)
      wallet.on('session_request', ({ id, topic }) => {
        wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: '0xabcd' } })
      })
      const answer = await dapp.request({
        topic: session.topic,
        chainId,
        request: { method: 'personal_sign', params: ['0x00', account.address] },
      })
      expect(answer).toBe('0xabcd')
    } finally {
      await closeClients()
    }
    expect(await cli.stop()).toBe(0)
  })

  let redis: TestRedis
  beforeAll(async () => {
    redis = await startRedis()
  })
  afterAll(() => redis.stop())
  const runOnRedis = async (prefix: string) =>
    run(['--port', String(await freePort()), '--redis', redis.url, '--redis-prefix', prefix])

  test('behavior: with --redis, queued messages outlive a SIGTERM restart', async () => {
    const prefix = `${redis.keyPrefix}cli:`
    const first = await runOnRedis(prefix)
    const dapp = await connect(await first.listening)
    const frame = dapp.pub('t', 'kept')
    // The round trip goes through the same Redis connection after the message was queued.
    await dapp.sync()
    expect(await first.stop()).toBe(0)
    expect(first.output()).not.toContain(redis.url)

    const second = await run(['--port', String(await freePort())], {
      REDIS_URL: redis.url,
      BRIDGE_REDIS_PREFIX: prefix,
    })
    const wallet = await connect(await second.listening)
    wallet.sub('t')
    expect(await wallet.next()).toBe(frame)
    await second.stop()
  })

  test('behavior: with --redis, the node listens for links on --link-listen and advertises --link-advertise', async () => {
    const prefix = `${redis.keyPrefix}cli-link:`
    const port = await freePort()
    const cli = await run(
      ['--port', String(await freePort()), '--redis', redis.url, '--redis-prefix', prefix],
      {
        BRIDGE_LINK_LISTEN: `127.0.0.1:${port}`,
        BRIDGE_LINK_ADVERTISE: `localhost:${port}`,
      },
    )
    await cli.listening
    const inspect = new Redis(redis.url)
    try {
      const [key] = await inspect.keys(`${prefix}link:*`)
      expect(await inspect.get(key as string)).toBe(`localhost:${port}`)
      // A link connection is challenged at once: `c` and the node id the key names.
      const challenge = await new Promise<Buffer>((resolve, reject) => {
        const socket = createConnection(port, '127.0.0.1')
        socket.once('data', (chunk: Buffer) => {
          socket.destroy()
          resolve(chunk.subarray(4, 21))
        })
        socket.once('error', reject)
      })
      expect(challenge.toString('latin1')).toBe(`c${(key as string).slice(-16)}`)
    } finally {
      inspect.disconnect()
    }
    expect(await cli.stop()).toBe(0)
  })

  test('behavior: with --redis, two linked nodes: a v2 publish answered on a node SIGKILLed at once reaches a reader that comes later', async () => {
    const prefix = `${redis.keyPrefix}cli3:`
    const [a, b] = [await runOnRedis(prefix), await runOnRedis(prefix)]
    const [urlA, urlB] = [
      (await a.listening).replace('http', 'ws'),
      (await b.listening).replace('http', 'ws'),
    ]
    const topic = 'e'.repeat(64)
    // A reader on B that never acks: what A pushes it over the link is held back, then written.
    const silent = await v2Socket(urlB)
    silent.call('irn_subscribe', { topic })
    await waitFor(() => silent.frames.length === 1, { message: 'subscribed' })
    const dapp = await v2Socket(urlA)
    for (const message of ['first', 'second']) {
      const id = dapp.call('irn_publish', { topic, message, ttl: 300 })
      await waitFor(() => dapp.frames.some((frame) => frame.id === id), { message: `${message} answered` })
    }
    await waitFor(() => silent.frames.length === 3, { message: 'both pushed on B' })
    if (a.pid) process.kill(a.pid, 'SIGKILL')
    await a.exited
    const late = await v2Socket(urlB)
    late.call('irn_subscribe', { topic })
    await waitFor(() => late.frames.length === 3, { message: 'both pushed to the late reader' })
    expect(late.frames.slice(1).map((frame) => frame.params?.data.message)).toEqual(['first', 'second'])
    expect(await b.stop()).toBe(0)
  })

  test('behavior: with --redis-write-delay 0, a v2 message read and acked at once is written all the same', async () => {
    const prefix = `${redis.keyPrefix}cli4:`
    const cli = await run(
      ['--port', String(await freePort()), '--redis', redis.url, '--redis-prefix', prefix],
      {
        REDIS_WRITE_DELAY_MS: '0',
      },
    )
    const url = (await cli.listening).replace('http', 'ws')
    const topic = 'f'.repeat(64)
    const wallet = await v2Socket(url)
    wallet.call('irn_subscribe', { topic })
    await waitFor(() => wallet.frames.length === 1, { message: 'subscribed' })
    const dapp = await v2Socket(url)
    for (const [i, message] of ['first', 'second'].entries()) {
      const id = dapp.call('irn_publish', { topic, message, ttl: 300 })
      await waitFor(() => wallet.frames.length === 2 + i, { message: `${message} pushed` })
      wallet.ack(wallet.frames[1 + i]?.id as number)
      await waitFor(() => dapp.frames.some((frame) => frame.id === id), { message: `${message} answered` })
    }
    // By default the second, read and acked at once, would not be in Redis.
    const inspect = new Redis(redis.url)
    expect(await inspect.zcard(`${prefix}v2:t:${topic}`)).toBe(2)
    inspect.disconnect()
    expect(await cli.stop()).toBe(0)
  })

  test('behavior: with --redis, v2 keeps its mailbox in Redis under the v1 prefix + v2:', async () => {
    const prefix = `${redis.keyPrefix}cli2:`
    const cli = await runOnRedis(prefix)
    const url = (await cli.listening).replace('http', 'ws')
    const topic = await publishOnce(url)
    const inspect = new Redis(redis.url)
    expect(await inspect.zcard(`${prefix}v2:t:${topic}`)).toBe(1)
    inspect.disconnect()
    expect(await cli.stop()).toBe(0)
  })
})

describe('behavior: Sentinel', () => {
  test('behavior: with REDIS_SENTINELS and REDIS_SENTINEL_MASTER, it runs on the primary the sentinels name; a v2 publish is answered once the replica holds it', async () => {
    const sentinel = await startRedisSentinel()
    try {
      const prefix = `${sentinel.keyPrefix}cli:`
      const hosts = sentinel.sentinels.map((member) => `127.0.0.1:${member.port}`).join(',')
      const cli = await run(['--port', String(await freePort()), '--redis-prefix', prefix], {
        REDIS_SENTINELS: hosts,
        REDIS_SENTINEL_MASTER: sentinel.masterName,
      })
      const url = (await cli.listening).replace('http', 'ws')
      const topic = await publishOnce(url)
      for (const { port } of sentinel.servers) {
        const inspect = new Redis({ host: '127.0.0.1', port })
        expect(await inspect.zcard(`${prefix}v2:t:${topic}`)).toBe(1)
        inspect.disconnect()
      }
      expect(await cli.stop()).toBe(0)
      expect(cli.output()).not.toContain(hosts.split(',')[0] as string)
    } finally {
      await sentinel.stop()
    }
  })
})

describe('error', () => {
  test('error: a bad flag exits with 2 and the usage', async () => {
    const cli = await run(['--port', 'nope'])
    expect(await cli.exited).toBe(2)
    expect(cli.output()).toContain('Usage: pairlink-bridge')
  })

  test('error: an unreachable Redis exits with 1', async () => {
    const cli = await run([
      '--port',
      String(await freePort()),
      '--redis',
      `redis://127.0.0.1:${await freePort()}`,
    ])
    expect(await cli.exited).toBe(1)
    expect(cli.output()).toContain('bridge failed to start')
  })

  test('error: sentinels that cannot be reached stop the start after 10 s, exiting with 1', async () => {
    const started = performance.now()
    const cli = await run(['--port', String(await freePort())], {
      REDIS_SENTINELS: `127.0.0.1:${await freePort()}`,
      REDIS_SENTINEL_MASTER: 'pairlink',
    })
    expect(await cli.exited).toBe(1)
    expect(cli.output()).toContain('bridge failed to start')
    expect(performance.now() - started).toBeLessThan(20_000)
  }, 30_000)
})

/** Publishes one v2 message (ttl 60 s) on a fresh topic through the relay at `url`; resolves with the topic once the
 * relay answered `true`. */
/** A raw v2 socket of a new client: its frames, parsed, and requests by method. */
async function v2Socket(url: string) {
  const ws = new WebSocket(`${url}?auth=${signRelayJwt({ aud: url }).token}`)
  const frames: { id?: number; params?: { data: { message: string } } }[] = []
  ws.on('message', (data) => frames.push(JSON.parse(String(data))))
  await new Promise((resolve) => ws.once('open', resolve))
  let id = 0
  return {
    frames,
    call(method: string, params: unknown) {
      ws.send(JSON.stringify({ id: ++id, jsonrpc: '2.0', method, params }))
      return id
    },
    /** Acks push `pushId` as the SDK does. */
    ack(pushId: number) {
      ws.send(JSON.stringify({ id: pushId, jsonrpc: '2.0', result: true }))
    },
  }
}

async function publishOnce(url: string): Promise<string> {
  const ws = new WebSocket(`${url}?auth=${signRelayJwt({ aud: url }).token}`)
  const frames: string[] = []
  ws.on('message', (data) => frames.push(String(data)))
  await new Promise((resolve) => ws.once('open', resolve))
  const topic = 'c'.repeat(64)
  const params = { topic, message: 'm', ttl: 60 }
  ws.send(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_publish', params }))
  await waitFor(() => frames.length === 1, { message: 'publish answered' })
  expect(JSON.parse(frames[0] as string)).toEqual({ id: 1, jsonrpc: '2.0', result: true })
  ws.terminate()
  return topic
}
