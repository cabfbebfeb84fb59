import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createBridgeServer } from '@pairlink/bridge'
import { signRelayJwt } from '@pairlink/protocol/v2'
import { startAnvil } from '@pairlink/test-kit/anvil'
import { startRedis } from '@pairlink/test-kit/redis'
import { startRedisSentinel } from '@pairlink/test-kit/redis-sentinel'
import { describe, expect, onTestFinished, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { relayAttempt } from '../test/relayAttempt.js'

const PROJECT_ID = '0123456789abcdef0123456789abcdef'

// The CLI is run from its build, as `npm start` runs it.
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url))

// Start-up spawns anvil and opens a database: slow on a loaded machine. Each test waits on what it needs (a line
// printed, the exit) with no timer of its own; this bound only ends a test that hangs.
const SLOW = { timeout: 120_000 }

/** `node apps/server/dist/main.js` with `env`, its own embedded database, and everything it prints. */
function startServer(env: Record<string, string>) {
  // Each run gets its own embedded database: the data folder is one server's at a time.
  const dataDir = mkdtempSync(join(tmpdir(), 'pairlink-main-'))
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: { ...process.env, DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const listeners = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    out += chunk.toString()
    for (const listener of [...listeners]) listener()
  }
  child.stdout?.on('data', onData)
  child.stderr?.on('data', onData)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  // Stopped by its PID whatever the outcome; SIGTERM (not SIGKILL) so the server stops the anvil it started.
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, 'SIGTERM')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    pid: child.pid ?? -1,
    output: () => out,
    /** Closes the reading ends of its stdout and stderr, as a log reader that died does. */
    dropOutput: () => {
      child.stdout?.destroy()
      child.stderr?.destroy()
    },
    /** Resolves with the exit code. */
    exited,
    /** Resolves once the output matches `pattern`; rejects, with the output, if the server exits first. */
    printed(pattern: RegExp): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out)
          if (!match) return
          listeners.delete(check)
          resolve(match)
        }
        listeners.add(check)
        check()
        void exited.then((code) => {
          check()
          if (listeners.delete(check))
            reject(new Error(`exited with ${code} before printing ${pattern}:\n${out}`))
        })
      })
    },
  }
}

/** Runs the server to its own exit (a start-up error): the exit code and what it printed. */
async function runToExit(env: Record<string, string>) {
  const server = startServer(env)
  return { code: await server.exited, out: server.output() }
}

const answers = async (url: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  }).then(
    (response) => response.ok,
    () => false,
  )

describe('pairlink-server', () => {
  test(
    'default: starts anvil, prints the URLs of the web app and the wallet, stops cleanly (with its anvil) on SIGTERM',
    SLOW,
    async () => {
      const server = startServer({ PORT: '0', HOST: '127.0.0.1' })
      const [, origin] = await server.printed(/web app\s+(http:\/\/127\.0\.0\.1:\d+)\//)
      const [, chain] = await server.printed(/anvil dev chain, id 31337, at (http:\/\/127\.0\.0\.1:\d+)/)
      const out = server.output()
      expect(out).toMatch(/wallet\s+http:\/\/127\.0\.0\.1:\d+\/wallet/)
      expect(out).toMatch(/database\s+embedded \(SQLite\)/)
      // The printed URLs answer: the server and its chain are really up.
      expect((await fetch(`${origin}/api/config`)).status).toBe(200)
      expect(await answers(chain ?? '')).toBe(true)
      // The WalletConnect v2 relay is on the same port: an upgrade carrying a v2 token is checked (a bad one is
      // closed with 3000 and the reason, as WalletConnect's relay does), where v1 alone would have taken it as a
      // bridge socket.
      expect(out).toMatch(/relay\s+ws:\/\/127\.0\.0\.1:\d+ \(this server; one node, memory\)\n/)
      // Without a project id, one line says what phone wallets need and where to get it.
      expect(out).toContain(
        'phone wallets need a WalletConnect project id: get one at https://dashboard.reown.com, set WALLETCONNECT_PROJECT_ID\n',
      )
      expect(await relayAttempt(`${origin?.replace('http', 'ws')}/?auth=not.a.jwt`)).toBe(
        '3000 Unauthorized: malformed auth token',
      )

      process.kill(server.pid, 'SIGTERM')
      expect(await server.exited, server.output()).toBe(0)
      expect(await answers(chain ?? '')).toBe(false)
    },
  )

  test('args: REDIS_URL runs the bridge and the v2 relay on Redis', SLOW, async () => {
    const redis = await startRedis()
    onTestFinished(() => redis.stop())
    const server = startServer({ PORT: '0', REDIS_URL: redis.url })
    await server.printed(/wallet\s+http/)
    expect(server.output()).toContain('(Redis backend)')
    expect(server.output()).toMatch(/relay\s+ws:\/\/\S+ \(this server; Redis\)/)
    process.kill(server.pid, 'SIGTERM')
    expect(await server.exited, server.output()).toBe(0)
  })

  test(
    'args: REDIS_SENTINELS and REDIS_SENTINEL_MASTER run them on the primary the sentinels name',
    SLOW,
    async () => {
      const sentinel = await startRedisSentinel()
      onTestFinished(() => sentinel.stop())
      const server = startServer({
        PORT: '0',
        REDIS_SENTINELS: sentinel.sentinels.map((member) => `127.0.0.1:${member.port}`).join(','),
        REDIS_SENTINEL_MASTER: sentinel.masterName,
      })
      await server.printed(/wallet\s+http/)
      expect(server.output()).toContain('(Redis backend)')
      expect(server.output()).toMatch(/relay\s+ws:\/\/\S+ \(this server; Redis\)/)
      process.kill(server.pid, 'SIGTERM')
      expect(await server.exited, server.output()).toBe(0)
    },
  )

  test(
    'error: a taken BRIDGE_LINK_LISTEN port is named in plain words, without the secret',
    SLOW,
    async () => {
      const redis = await startRedis()
      onTestFinished(() => redis.stop())
      const blocker = createServer()
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
      onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
      const port = (blocker.address() as { port: number }).port
      const anvil = await startAnvil()
      onTestFinished(() => anvil.stop())
      const { code, out } = await runToExit({
        PORT: '0',
        RPC_URL: anvil.url,
        REDIS_URL: redis.url,
        BRIDGE_LINK_LISTEN: `127.0.0.1:${port}`,
        BRIDGE_LINK_SECRET: 'hunter2-but-long-enough',
      })
      expect(code).toBe(1)
      expect(out).toContain(
        `pairlink: Cannot listen for bridge node links on 127.0.0.1:${port} (EADDRINUSE): fix BRIDGE_LINK_LISTEN, or set it to off`,
      )
      expect(out).not.toContain('hunter2')
    },
  )

  test(
    "args: WALLETCONNECT_PROJECT_ID — the apps get that relay, the banner names it, a refusing relay's fix is logged once",
    SLOW,
    async () => {
      // Pairlink's own relay restricted to another project stands in for WalletConnect's: it refuses with 403.
      const relay = createBridgeServer({ relay: { projectIds: ['fedcba9876543210fedcba9876543210'] } })
      onTestFinished(() => relay.close())
      const relayUrl = (await relay.listen(0, '127.0.0.1')).url.replace(/^http/, 'ws')
      const server = startServer({
        PORT: '0',
        HOST: '127.0.0.1',
        WALLETCONNECT_PROJECT_ID: PROJECT_ID,
        WALLETCONNECT_RELAY_URL: relayUrl,
      })
      const [, origin] = await server.printed(/web app\s+(http:\/\/127\.0\.0\.1:\d+)\//)
      expect(server.output()).toContain(
        `relay     ${relayUrl} (WalletConnect's network, project 0123…cdef)\n`,
      )
      expect(server.output()).toMatch(
        /this server's own relay still serves SDKs given its URL: ws:\/\/127\.0\.0\.1:\d+/,
      )
      expect(server.output()).not.toContain('phone wallets need')
      expect(await (await fetch(`${origin}/api/config`)).json()).toMatchObject({
        relayUrl,
        projectId: PROJECT_ID,
        relayNetwork: 'walletconnect',
      })
      await server.printed(/"msg":"The relay [^"]+ refused/)
      expect(server.output()).toContain(
        `(HTTP 403 \\"Unknown projectId\\"): set WALLETCONNECT_PROJECT_ID to a project id from https://dashboard.reown.com"`,
      )
      // One line, and the server runs on.
      expect(server.output().match(/refused project/g)).toHaveLength(1)
      expect((await fetch(`${origin}/api/config`)).status).toBe(200)
    },
  )

  test(
    'error: a relay that closes with 3000 "origin not allowed" → the origin to add, logged once',
    SLOW,
    async () => {
      const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
      await new Promise<void>((resolve) => wss.once('listening', resolve))
      onTestFinished(() => new Promise<void>((resolve) => wss.close(() => resolve())))
      wss.on('connection', (ws) => ws.close(3000, 'Unauthorized: origin not allowed'))
      const server = startServer({
        PORT: '0',
        HOST: '127.0.0.1',
        PUBLIC_URL: 'https://pairlink.example',
        WALLETCONNECT_PROJECT_ID: PROJECT_ID,
        WALLETCONNECT_RELAY_URL: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
      })
      await server.printed(/"msg":"The relay [^"]+ refused/)
      expect(server.output()).toContain(
        "add https://pairlink.example to the project's allowed domains at https://dashboard.reown.com",
      )
      expect(server.output().match(/refused project/g)).toHaveLength(1)
    },
  )

  test('error: WALLETCONNECT_RELAY_URL without a project id stops the server', SLOW, async () => {
    const { code, out } = await runToExit({ PORT: '0', WALLETCONNECT_RELAY_URL: 'wss://relay.example' })
    expect(code).toBe(1)
    expect(out).toContain(
      'pairlink: WALLETCONNECT_RELAY_URL needs WALLETCONNECT_PROJECT_ID too (a project id from https://dashboard.reown.com), or unset it',
    )
  })

  test('error: an unreachable Redis is named in plain words', SLOW, async () => {
    const { code, out } = await runToExit({ PORT: '0', REDIS_URL: 'redis://127.0.0.1:1' })
    expect(code).toBe(1)
    expect(out).toContain('Redis at redis://127.0.0.1:1 is unreachable: start it or fix REDIS_URL')
  })

  test(
    'error: a DATA_DIR that cannot be a folder is named with its cause, not as a server holding it',
    SLOW,
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'pairlink-datadir-')), 'a-file')
      writeFileSync(file, '')
      const { code, out } = await runToExit({ PORT: '0', DATA_DIR: file })
      expect(code).toBe(1)
      expect(out).toContain(`The embedded database in ${file} cannot be opened (EEXIST)`)
      expect(out).toContain('check that DATA_DIR is a folder this user may write')
      expect(out).not.toContain('another Pairlink server')
    },
  )

  test('error: unreachable sentinels are named as the setting to fix, not REDIS_URL', SLOW, async () => {
    const { code, out } = await runToExit({
      PORT: '0',
      REDIS_SENTINELS: '127.0.0.1:1',
      REDIS_SENTINEL_MASTER: 'pairlink',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    })
    expect(code).toBe(1)
    expect(out).toContain(
      'Redis through the sentinels at redis+sentinel://127.0.0.1:1/pairlink is unreachable',
    )
    expect(out).toContain('fix REDIS_SENTINELS / REDIS_SENTINEL_MASTER')
    expect(out).not.toContain('sentinel-secret')
  })

  test(
    'error: a second server on another port is refused the embedded database the first one holds',
    SLOW,
    async () => {
      const anvil = await startAnvil()
      onTestFinished(() => anvil.stop())
      const first = startServer({ PORT: '0', HOST: '127.0.0.1', RPC_URL: anvil.url })
      await first.printed(/database\s+embedded \(SQLite\) in (\S+)/)
      const [, dataDir] = /database\s+embedded \(SQLite\) in (\S+)/.exec(first.output()) ?? []
      const { code, out } = await runToExit({
        PORT: '0',
        HOST: '127.0.0.1',
        RPC_URL: anvil.url,
        DATA_DIR: dataDir ?? '',
      })
      expect(code).toBe(1)
      expect(out).toContain(
        `The embedded database in ${dataDir} is in use by another Pairlink server (pid ${first.pid})`,
      )
      // The first one was not disturbed, and once it stops the folder is free again.
      process.kill(first.pid, 'SIGTERM')
      expect(await first.exited, first.output()).toBe(0)
      const again = startServer({ PORT: '0', HOST: '127.0.0.1', RPC_URL: anvil.url, DATA_DIR: dataDir ?? '' })
      await again.printed(/web app\s+http/)
    },
  )

  test('error: a taken port is named in plain words', SLOW, async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())))
    const port = String((blocker.address() as { port: number }).port)
    const anvil = await startAnvil()
    onTestFinished(() => anvil.stop())
    const { code, out } = await runToExit({ PORT: port, HOST: '127.0.0.1', RPC_URL: anvil.url })
    expect(code).toBe(1)
    expect(out).toContain(`pairlink: Port ${port} on 127.0.0.1 is taken: stop what uses it or set PORT`)
  })

  test('error: an unreachable RPC node is named without its credentials', SLOW, async () => {
    const { code, out } = await runToExit({ PORT: '0', RPC_URL: 'http://user:hunter2@127.0.0.1:1/' })
    expect(code).toBe(1)
    // The URL itself is printed, so the credentials would have been seen had they been left in.
    expect(out).toContain('The RPC node at http://127.0.0.1:1/… is unreachable: start it or fix RPC_URL')
    expect(out).not.toContain('hunter2')
  })

  test('error: a key in the RPC URL path is never printed', SLOW, async () => {
    const { code, out } = await runToExit({
      PORT: '0',
      RPC_URL: 'https://alice:hunter2@127.0.0.1:1/v3/KEY123',
    })
    expect(code).toBe(1)
    // The host is printed, so the path would have been seen had it been left in.
    expect(out).toContain('The RPC node at https://127.0.0.1:1/… is unreachable: start it or fix RPC_URL')
    expect(out).not.toMatch(/hunter2|KEY123|alice/)
  })

  test('error: a bad variable is named before anything starts', SLOW, async () => {
    const { code, out } = await runToExit({ PORT: '0', PUBLIC_URL: 'https://pairlink.example/app' })
    expect(code).toBe(1)
    expect(out).toContain('pairlink: PUBLIC_URL must be an origin')
    expect(out).not.toContain('anvil dev chain')
  })

  // No anvil here: start-up is quick, and a shutdown that hangs fails by this bound.
  test('behavior: SIGTERM stops it after the reader of its output is gone (writes to a dead pipe)', {
    timeout: 30_000,
  }, async () => {
    // An RPC node that never answers holds start-up at its first request: nothing to clean up yet, so the shutdown's
    // log line is the last thing written before the exit.
    const silent = createServer((socket) => onTestFinished(() => void socket.destroy()))
    const asked = new Promise((resolve) => silent.once('connection', resolve))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => void silent.close())
    const { port } = silent.address() as { port: number }
    const server = startServer({ PORT: '0', HOST: '127.0.0.1', RPC_URL: `http://127.0.0.1:${port}` })
    await asked
    server.dropOutput()
    process.kill(server.pid, 'SIGTERM')
    expect(await server.exited).toBe(0)
  })

  test('args: PUBLIC_URL is the site the server prints and hands out', SLOW, async () => {
    const server = startServer({ PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'https://pairlink.example' })
    await server.printed(/web app\s+https:\/\/pairlink\.example\//)
    expect(server.output()).toMatch(/wallet\s+https:\/\/pairlink\.example\/wallet/)
  })

  test('error: an invalid PORT', SLOW, async () => {
    const { code, out } = await runToExit({ PORT: 'eighty' })
    expect(code).toBe(1)
    expect(out).toContain('PORT must be a port number, got eighty')
  })

  test(
    'args: RELAY_ALLOWED_ORIGINS — the own relay closes a page of another origin with 3000 and the reason, as WalletConnect does',
    SLOW,
    async () => {
      const server = startServer({
        PORT: '0',
        HOST: '127.0.0.1',
        RELAY_ALLOWED_ORIGINS: 'https://shop.example',
      })
      const [, origin] = await server.printed(/web app\s+(http:\/\/127\.0\.0\.1:\d+)\//)
      const relayUrl = (origin as string).replace(/^http/, 'ws')
      const seed = '11'.repeat(32)
      const attempt = async (origin: string) =>
        relayAttempt(
          `${relayUrl}/?auth=${await signRelayJwt({ seed, aud: relayUrl })}&projectId=${PROJECT_ID}`,
          {
            origin,
          },
        )
      expect(await attempt('https://evil.example')).toBe('3000 Unauthorized: origin not allowed')
      expect(await attempt('https://shop.example')).toBe('open')
    },
  )
})
