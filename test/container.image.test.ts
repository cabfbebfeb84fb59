import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '@pairlink/test-kit'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

// The image built from the Dockerfile with podman and run as an operator would: on a real anvil, PostgreSQL and
// redis-server (test-kit's, on 127.0.0.1; the container shares the host's network so that everything stays on
// loopback), then alone on its embedded database in a volume. Opt-in (PAIRLINK_CONTAINER_TEST=1): a cold build takes
// about two minutes and needs root's podman and debootstrap. The base image is PAIRLINK_CONTAINER_BASE, made from
// Debian's packages by scripts/container-base.mjs when it does not exist (no image registry needed).
const enabled = process.env.PAIRLINK_CONTAINER_TEST === '1'
const root = fileURLToPath(new URL('..', import.meta.url))
const base = process.env.PAIRLINK_CONTAINER_BASE ?? 'localhost/pairlink-node:20-bookworm'
const id = randomBytes(4).toString('hex')
const image = `localhost/pairlink-test:${id}`
const names = { services: `pairlink-test-${id}`, embedded: `pairlink-test-${id}-sqlite` }
const volume = `pairlink-test-${id}`

let work: string
let anvil: Anvil | undefined
let postgres: TestPostgres | undefined
let redis: TestRedis | undefined
/** Build and start times, for the docs' figures. */
const timings: Record<string, number> = {}

/** Runs podman to its end; resolves with its stdout, rejects with its stderr. Never given a secret to print. */
function podman(args: string[], timeout = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'podman',
      args,
      {
        env: {
          ...process.env,
          CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(work, 'containers.conf'),
        },
        timeout,
        maxBuffer: 64 * 2 ** 20,
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`podman ${args[0]} failed: ${stderr || error.message}`)) : resolve(stdout),
    )
  })
}

/**
 * podman's defaults the machine may refuse, set to what it allows: a root without CAP_SYS_RESOURCE (a sandboxed VM)
 * cannot raise the containers' open-file and process limits above its own, and crun refuses hosts that mount cgroup
 * v1 and v2 together, where runc works. Only used when CONTAINERS_CONF does not name the machine's own settings.
 */
function writeContainersConf(file: string) {
  const limits = readFileSync('/proc/self/limits', 'utf8')
  const hard = (name: string, cap: number) => {
    const value = limits.match(new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, 'm'))?.[1]
    return value && value !== 'unlimited' ? Math.min(Number(value), cap) : cap
  }
  writeFileSync(
    file,
    [
      '[containers]',
      `default_ulimits = ["nofile=${hard('Max open files', 65536)}:${hard('Max open files', 65536)}", "nproc=${hard('Max processes', 32768)}:${hard('Max processes', 32768)}"]`,
      '[engine]',
      'runtime = "runc"',
      '',
    ].join('\n'),
  )
}

/** Resolves once `url` answers 2xx, polling every 100 ms; rejects after `timeout` ms with the container's log. */
async function untilHealthy(url: string, container: string, timeout = 60_000): Promise<void> {
  const deadline = Date.now() + timeout
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return
    if (Date.now() > deadline)
      throw new Error(
        `${url} did not answer within ${timeout} ms:\n${await podman(['logs', container]).catch(String)}`,
      )
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Starts the image as `name` on the host's network, the server on 127.0.0.1:`port`; resolves with its origin. */
async function runServer(name: string, port: number, env: Record<string, string>, args: string[] = []) {
  const origin = `http://127.0.0.1:${port}`
  const settings = { HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: origin, ...env }
  const flags = Object.entries(settings).flatMap(([key, value]) => ['--env', `${key}=${value}`])
  await podman(['run', '--detach', '--name', name, '--network', 'host', ...flags, ...args, image])
  return origin
}

describe.skipIf(!enabled)('the container image', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pairlink-container-'))
    writeContainersConf(join(work, 'containers.conf'))
    const exists = await podman(['image', 'exists', base]).then(
      () => true,
      () => false,
    )
    let start = performance.now()
    if (!exists)
      await new Promise<void>((resolve, reject) =>
        execFile(
          process.execPath,
          [join(root, 'scripts/container-base.mjs'), base],
          { timeout: 300_000 },
          (error) => (error ? reject(error) : resolve()),
        ),
      )
    timings.base = performance.now() - start
    // Behind a TLS-intercepting proxy npm needs its CA, handed in as a build secret (never a layer).
    const ca = process.env.NODE_EXTRA_CA_CERTS
    start = performance.now()
    await podman(
      [
        'build',
        '--format=docker',
        '--layers=false',
        `--build-arg=BASE=${base}`,
        ...(ca ? [`--secret=id=npm_ca,src=${ca}`] : []),
        `--tag=${image}`,
        root,
      ],
      900_000,
    )
    timings.build = performance.now() - start
    ;[anvil, postgres, redis] = await Promise.all([startAnvil(), startPostgres(), startRedis()])
  }, 1_200_000)

  afterAll(async () => {
    for (const name of Object.values(names)) await podman(['rm', '--force', '--time=0', name]).catch(() => {})
    await podman(['volume', 'rm', '--force', volume]).catch(() => {})
    await podman(['rmi', '--force', image]).catch(() => {})
    await Promise.all([anvil?.stop(), postgres?.stop(), redis?.stop()])
    rmSync(work, { recursive: true, force: true })
    console.log(
      `[container] ${JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])))}`,
    )
  }, 120_000)

  test('default: on anvil, PostgreSQL and Redis it serves /health, the web app, the wallet page and the API', async () => {
    if (!anvil || !postgres || !redis) throw new Error('services not started')
    const port = await freePort()
    const start = performance.now()
    const origin = await runServer(names.services, port, {
      RPC_URL: anvil.url,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
    })
    await untilHealthy(`${origin}/health`, names.services)
    timings.start = performance.now() - start
    expect(await fetch(`${origin}/`).then((r) => r.text())).toContain('<title>Pairlink</title>')
    expect((await fetch(`${origin}/wallet/`)).status).toBe(200)
    // A nonce is written to the database: PostgreSQL, reached from inside the container.
    const nonce = await fetch(`${origin}/api/nonce`)
    expect(nonce.status).toBe(200)
    const log = await podman(['logs', names.services])
    expect(log).toMatch(/database\s+PostgreSQL/)
    expect(log).toMatch(/bridge\s+\S+ \(Redis backend\)/)
    // The image's own HEALTHCHECK, as the engine runs it.
    await podman(['healthcheck', 'run', names.services])
  })

  test('behavior: the server runs as an unprivileged user that cannot rewrite its own code', async () => {
    expect((await podman(['exec', names.services, 'id', '-u'])).trim()).toBe('10001')
    await expect(
      podman(['exec', names.services, 'touch', '/app/node_modules/@pairlink/server/x']),
    ).rejects.toThrow(/Permission denied/)
  })

  test('behavior: SIGTERM stops it at once, exit code 0', async () => {
    const start = performance.now()
    await podman(['stop', '--time=10', names.services])
    expect(performance.now() - start).toBeLessThan(5_000)
    expect((await podman(['inspect', '--format={{.State.ExitCode}}', names.services])).trim()).toBe('0')
  })

  test('behavior: alone, on its embedded database in a volume, it starts again after being killed', async () => {
    if (!anvil) throw new Error('anvil not started')
    const port = await freePort()
    const origin = await runServer(names.embedded, port, { RPC_URL: anvil.url }, [
      '--volume',
      `${volume}:/data`,
    ])
    await untilHealthy(`${origin}/health`, names.embedded)
    expect((await fetch(`${origin}/api/nonce`)).status).toBe(200)
    // SIGKILL leaves the database's lock behind, naming pid 1: the restarted server (pid 1 again) must take it over.
    await podman(['kill', '--signal=KILL', names.embedded])
    await podman(['start', names.embedded])
    await untilHealthy(`${origin}/health`, names.embedded, 30_000)
    expect((await fetch(`${origin}/api/nonce`)).status).toBe(200)
    expect(await podman(['logs', names.embedded])).toMatch(/database\s+embedded \(SQLite\) in \/data\/db/)
  })
})
