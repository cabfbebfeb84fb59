import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'

// The image's recipe checked as hadolint would check it, without an engine: the container test
// (container.image.test.ts) builds and runs it where podman can, which a CI machine need not allow.
const root = fileURLToPath(new URL('..', import.meta.url))
/** `${name}` as a Dockerfile or compose file writes a variable. */
const variable = (name: string) => `$\{${name}}`
const read = (file: string) => readFileSync(join(root, file), 'utf8')
type Manifest = { name: string; dependencies?: Record<string, string> }
/** The workspaces' folders and manifests (the root names each folder; no patterns). */
const workspaces = (JSON.parse(read('package.json')).workspaces as string[]).map((dir) => ({
  dir,
  pkg: JSON.parse(read(`${dir}/package.json`)) as Manifest,
}))

type Instruction = { keyword: string; args: string; line: number }
type Stage = { from: string; name?: string; instructions: Instruction[] }

/** The Dockerfile's instructions (continuation lines joined, comments dropped), split into its stages. */
function parseDockerfile(text: string): { preamble: Instruction[]; stages: Stage[] } {
  const instructions: Instruction[] = []
  let pending: Instruction | undefined
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim()
    if (!pending && (line === '' || line.startsWith('#'))) return
    if (pending && line.startsWith('#')) return
    const body = line.endsWith('\\') ? line.slice(0, -1).trim() : line
    if (pending) pending.args = `${pending.args} ${body}`.trim()
    else {
      const [keyword = '', ...rest] = body.split(/\s+/)
      pending = { keyword: keyword.toUpperCase(), args: rest.join(' '), line: index + 1 }
    }
    if (!line.endsWith('\\')) {
      instructions.push(pending)
      pending = undefined
    }
  })
  const preamble: Instruction[] = []
  const stages: Stage[] = []
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = instruction.args.split(/\s+/)
      stages.push({ from, ...(as?.toUpperCase() === 'AS' && name ? { name } : {}), instructions: [] })
    } else if (stages.length === 0) preamble.push(instruction)
    else stages.at(-1)?.instructions.push(instruction)
  }
  return { preamble, stages }
}

const dockerfile = parseDockerfile(read('Dockerfile'))
const [build, runtime] = dockerfile.stages
const all = (stage: Stage | undefined, keyword: string) =>
  stage?.instructions.filter((instruction) => instruction.keyword === keyword) ?? []
/** `ENV a=1 b=2` as a record (the `key=value` form only, as the Dockerfile writes it). */
const env = (stage: Stage | undefined) =>
  Object.fromEntries(
    all(stage, 'ENV').flatMap(({ args }) =>
      args.split(/\s+/).map((pair) => pair.split('=') as [string, string]),
    ),
  )

describe('Dockerfile', () => {
  test('default: two stages from one BASE argument, the official slim Node 20 image unless told', () => {
    expect(dockerfile.preamble).toEqual([
      expect.objectContaining({ keyword: 'ARG', args: 'BASE=node:20-bookworm-slim' }),
    ])
    expect(dockerfile.stages.map(({ from, name }) => [from, name])).toEqual([
      [variable('BASE'), 'build'],
      [variable('BASE'), 'runtime'],
    ])
  })

  test('behavior: the build stage installs from the lock, with every workspace manifest copied first', () => {
    const instructions = build?.instructions ?? []
    const ci = instructions.findIndex(({ args }) => /\bnpm ci\b/.test(args))
    expect(ci).toBeGreaterThan(0)
    const copiedBefore = instructions
      .slice(0, ci)
      .filter(({ keyword }) => keyword === 'COPY')
      .flatMap(({ args }) => args.split(/\s+/).slice(0, -1))
    for (const { dir } of workspaces) expect(copiedBefore).toContain(`${dir}/package.json`)
    expect(copiedBefore).toContain('package-lock.json')
    const afterCi = instructions.slice(ci + 1).map(({ args }) => args)
    expect(afterCi.some((args) => args.includes('node scripts/pack-server.mjs /tarballs'))).toBe(true)
    expect(afterCi.some((args) => /npm install --omit=dev\b.*\/tarballs\/\*\.tgz/.test(args))).toBe(true)
  })

  test('behavior: the runtime stage takes only the installed server and runs it as a non-root user', () => {
    const copies = all(runtime, 'COPY')
    expect(copies.map(({ args }) => args)).toEqual(['--from=build --chown=root:root /app /app'])
    const users = all(runtime, 'USER')
    expect(users).toHaveLength(1)
    expect(runtime?.instructions.at(-1)?.keyword).toBe('ENTRYPOINT')
    const [uid = '', gid = ''] = (users[0]?.args ?? '').split(':')
    expect(Number(uid)).toBeGreaterThanOrEqual(1000)
    expect(Number(gid)).toBeGreaterThanOrEqual(1000)
    // The user is made in the image, with the ids USER names (a numeric USER lets Kubernetes check runAsNonRoot).
    const setup = all(runtime, 'RUN')
      .map(({ args }) => args)
      .join(' ')
    expect(setup).toContain(`useradd --uid ${uid} `)
    expect(setup).toContain(`groupadd --gid ${gid} `)
  })

  test('behavior: the runtime stage listens on all its interfaces at the exposed port, data in a volume folder', () => {
    const values = env(runtime)
    expect(values).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '8080' })
    expect(all(runtime, 'EXPOSE').map(({ args }) => args)).toEqual([values.PORT])
    // The server writes its lock beside DATA_DIR: a folder inside the volume the user owns, never / itself.
    expect(values.DATA_DIR).toMatch(/^\/data\/[^/]+$/)
    const setup = all(runtime, 'RUN')
      .map(({ args }) => args)
      .join(' ')
    expect(setup).toContain('chown pairlink:pairlink /data')
  })

  test('behavior: HEALTHCHECK asks /health on the server’s port, with Node (slim images carry no curl)', () => {
    const [check, ...more] = all(runtime, 'HEALTHCHECK')
    expect(more).toEqual([])
    expect(check?.args).toMatch(
      /--interval=\d+s --timeout=\d+s --start-period=\d+s --retries=\d+ CMD \["node"/,
    )
    expect(check?.args).toContain("'/health'")
    expect(check?.args).toContain('process.env.PORT||8080')
  })

  test('behavior: ENTRYPOINT is exec form (the server is pid 1 and gets SIGTERM) and names the package’s bin', () => {
    const [entrypoint] = all(runtime, 'ENTRYPOINT')
    expect(JSON.parse(entrypoint?.args ?? '')).toEqual([
      'node',
      '/app/node_modules/@pairlink/server/bin/pairlink-server.js',
    ])
    expect(JSON.parse(read('apps/server/package.json')).bin).toEqual({
      'pairlink-server': './bin/pairlink-server.js',
    })
  })

  test('error: no ADD, no URL fetched, no secret in ENV or ARG, no latest tag', () => {
    const instructions = [...dockerfile.preamble, ...dockerfile.stages.flatMap((stage) => stage.instructions)]
    expect(instructions.filter(({ keyword }) => keyword === 'ADD')).toEqual([])
    expect(instructions.filter(({ args }) => /\b(curl|wget)\b/.test(args))).toEqual([])
    const declared = instructions.filter(({ keyword }) => keyword === 'ENV' || keyword === 'ARG')
    for (const { args } of declared) {
      expect(args).not.toMatch(/(SECRET|PASSWORD|TOKEN|PRIVATE|_KEY)\w*=/i)
      expect(args).not.toMatch(/:\/\/[^/\s]*@/)
    }
    expect(dockerfile.preamble[0]?.args).not.toMatch(/:latest$/)
    // The one credential a build may need (a TLS-intercepting proxy's CA) comes as a build secret, never a layer.
    const ca = instructions.filter(({ args }) => args.includes('npm_ca'))
    expect(ca.length).toBeGreaterThan(0)
    for (const { keyword, args } of ca) {
      expect(keyword).toBe('RUN')
      expect(args).toContain('--mount=type=secret,id=npm_ca')
    }
  })
})

describe('.dockerignore', () => {
  test('default: nothing installed, built, local or secret goes into the build context', () => {
    const patterns = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
    for (const pattern of [
      '**/node_modules',
      '**/dist',
      '**/*.tsbuildinfo',
      '.git',
      '.pairlink',
      '.env',
      '.env.*',
    ])
      expect(patterns).toContain(pattern)
  })
})

type Service = {
  image?: string
  ports?: string[]
  environment?: Record<string, string>
  healthcheck?: { test: string[] }
  depends_on?: Record<string, { condition: string }>
  volumes?: string[]
  read_only?: boolean
  cap_drop?: string[]
  security_opt?: string[]
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<string, Service>
    volumes: Record<string, unknown>
  }
  const { server, postgres, redis } = compose.services

  test('default: the server on PostgreSQL and Redis, started once both are healthy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', 'redis', 'server'])
    expect(server?.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    })
    expect(postgres?.healthcheck?.test).toContain('pg_isready')
    expect(redis?.healthcheck?.test.join(' ')).toContain('redis-cli ping')
    expect(server?.environment?.DATABASE_URL).toMatch(
      /^postgres:\/\/pairlink:\$\{POSTGRES_PASSWORD:\?.*\}@postgres:5432\/pairlink$/,
    )
    expect(server?.environment?.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?.*\}@redis:6379$/)
  })

  test('behavior: every service keeps its data in a named volume', () => {
    expect(server?.volumes).toEqual(['pairlink-data:/data'])
    expect(postgres?.volumes).toEqual(['postgres-data:/var/lib/postgresql/data'])
    expect(redis?.volumes).toEqual(['redis-data:/data'])
    expect(Object.keys(compose.volumes).sort()).toEqual(['pairlink-data', 'postgres-data', 'redis-data'])
  })

  test('error: no password written in the file, only the server published (on loopback), and it runs locked down', () => {
    for (const service of Object.values(compose.services))
      for (const [name, value] of Object.entries(service.environment ?? {}))
        if (/PASSWORD|SECRET|AUTH/.test(name)) expect(value).toMatch(/^\$\{\w+:\?[^}]*\}$/)
    expect(postgres?.ports).toBeUndefined()
    expect(redis?.ports).toBeUndefined()
    expect(server).toMatchObject({
      read_only: true,
      cap_drop: ['ALL'],
      security_opt: ['no-new-privileges:true'],
    })
    expect(server?.ports).toEqual([`127.0.0.1:${variable('PAIRLINK_PORT:-8080')}:8080`])
  })
})

describe('scripts/pack-server.mjs', () => {
  test('default: the server and the workspaces it depends on at run time, transitively, and nothing else', () => {
    const names = execFileSync(process.execPath, [join(root, 'scripts/pack-server.mjs'), '--list'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
    const manifests = new Map(workspaces.map(({ pkg }) => [pkg.name, pkg]))
    const expected = new Set<string>()
    const add = (name: string) => {
      if (expected.has(name) || !manifests.has(name)) return
      expected.add(name)
      for (const dependency of Object.keys(manifests.get(name)?.dependencies ?? {})) add(dependency)
    }
    add('@pairlink/server')
    expect(names).toEqual([...expected].sort())
    expect(names).toContain('@pairlink/bridge')
    expect(names).not.toContain('@pairlink/web')
    expect(names).not.toContain('@pairlink/wallet')
  })
})
