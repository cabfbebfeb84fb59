import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Anvil, startAnvil } from '@pairlink/test-kit/anvil'
import { startPostgres, type TestPostgres } from '@pairlink/test-kit/postgres'
import { startRedis, type TestRedis } from '@pairlink/test-kit/redis'
import { type Browser, expect, type Page, test } from '@playwright/test'
import pg from 'pg'
import { ACCOUNT_0 } from '../product/support/accounts.js'
import { startCliWallet } from '../product/support/cliWallet.js'
import { copyPairingUri } from '../product/support/dapp.js'
import { type Product, startProduct } from '../product/support/product.js'
import { answerRequest, approveSession, pasteUri } from '../product/support/walletPage.js'
import { createWorkFolder, packWorkspaces, run, withPairlinkDependencies } from './support/installApps.js'

// The server as an operator installs it: @pairlink/server and @pairlink/wallet packed (`npm pack`, their prepack
// copying the built web app and wallet page in) with the Pairlink packages they depend on, installed with npm into an
// empty folder (everything else from the registry), and started from there with RPC_URL, DATABASE_URL and REDIS_URL
// pointing at a real anvil, PostgreSQL and redis-server (test-kit's own, or the machine's when DATABASE_URL /
// REDIS_URL are set). Chromium then pairs the web app with the wallet page, and with the installed pairlink-wallet,
// and signs through each. Nothing of the repository is on the installed server's module path.
test.describe.configure({ mode: 'serial' })

const PACKAGES = withPairlinkDependencies(['@pairlink/server', '@pairlink/wallet'])

let work: string
let folder: string
let anvil: Anvil | undefined
let postgres: TestPostgres | undefined
let redis: TestRedis | undefined
let product: Product | undefined
/** How long `npm pack` and `npm install` took, for the README's figures. */
const timings: Record<string, number> = {}

const installed = (...path: string[]) => join(folder, 'node_modules', ...path)

test.beforeAll(async () => {
  test.setTimeout(600_000)
  work = createWorkFolder()
  folder = join(work, 'app')
  mkdirSync(folder)
  const tarballsDir = join(work, 'tarballs')
  mkdirSync(tarballsDir)
  let start = performance.now()
  const tarballs = await packWorkspaces(PACKAGES, tarballsDir)
  timings.pack = performance.now() - start
  // Every Pairlink package by its tarball: the servers' `0.1.0` ranges resolve to them, not to the registry.
  const dependencies = Object.fromEntries(PACKAGES.map((name) => [name, `file:${tarballs[name]}`]))
  const pkg = { name: 'pairlink-operator', private: true, dependencies }
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
  start = performance.now()
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], folder, 400_000)
  timings.install = performance.now() - start
  ;[anvil, postgres, redis] = await Promise.all([startAnvil(), startPostgres(), startRedis()])
  product = await startProduct(
    { RPC_URL: anvil.url, DATABASE_URL: postgres.url, REDIS_URL: redis.url },
    { main: installed('@pairlink/server', 'bin', 'pairlink-server.js'), cwd: folder },
  )
  console.log(
    `[server.spec] npm pack ${Math.round(timings.pack)} ms, npm install ${Math.round(timings.install)} ms`,
  )
})

test.afterAll(async () => {
  test.setTimeout(120_000)
  await product?.stop()
  await Promise.all([anvil?.stop(), postgres?.stop(), redis?.stop()])
  if (work) rmSync(work, { recursive: true, force: true })
})

const started = () => product as Product

test('installs: the server carries the built web app and wallet page; no test kit, no dev chain', async () => {
  for (const app of ['web', 'wallet']) {
    expect(existsSync(installed('@pairlink/server', app, 'index.html')), app).toBe(true)
    // The apps' builds, without their source maps.
    const html = readFileSync(installed('@pairlink/server', app, 'index.html'), 'utf8')
    expect(html).toMatch(/<script type="module"[^>]* src="\/(wallet\/)?assets\/index-[\w-]+\.js"/)
  }
  expect(existsSync(installed('@pairlink', 'test-kit'))).toBe(false)
  expect(existsSync(installed('@foundry-rs', 'anvil'))).toBe(false)
  expect(existsSync(installed('@pairlink', 'wallet', 'bin', 'pairlink-wallet.js'))).toBe(true)
  expect(existsSync(installed('react'))).toBe(false)
  const { origin, output } = started()
  expect(output()).toContain('database  PostgreSQL at')
  expect(output()).toContain('(Redis backend)')
  expect(output()).toMatch(/chain\s+RPC node, chain id 31337/)
  // Both pages come from the package: the web app at /, the wallet page at /wallet, each with its assets.
  for (const path of ['/', '/wallet']) {
    const page = await fetch(`${origin}${path}`)
    expect(page.status).toBe(200)
    const script = /src="([^"]+\.js)"/.exec(await page.text())?.[1]
    expect((await fetch(`${origin}${script}`)).status).toBe(200)
  }
})

/** The sign-ins the server recorded in PostgreSQL for `address`. */
async function sessionsOf(address: string): Promise<number> {
  const client = new pg.Client({ connectionString: postgres?.url })
  await client.connect()
  try {
    const { rows } = await client.query(
      'SELECT count(*)::int AS n FROM sessions WHERE lower(address) = lower($1)',
      [address],
    )
    return rows[0].n as number
  } finally {
    await client.end()
  }
}

test('the web app pairs with the wallet page over v2 (one-click sign-in) and signs a message', async ({
  browser,
  page,
}) => {
  const { origin } = started()
  const wallet = await (await (browser as Browser).newContext()).newPage()
  try {
    await page.goto(origin)
    const uri = await copyPairingUri(page, 2)
    await pasteUri(wallet, origin, uri)
    await approveSession(wallet)
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
    await expect(page.getByTestId('sign-in-status')).toHaveAttribute('data-state', 'signed-in')
    expect(await sessionsOf(ACCOUNT_0)).toBeGreaterThan(0)
    await signMessage(page, () => answerRequest(wallet, 'personal_sign', 'approve'))
  } finally {
    await wallet.context().close()
  }
})

test('pairlink-wallet installed from its tarball pairs with the installed server (v1 over the Redis bridge) and signs', async ({
  page,
}) => {
  const { origin, rpcUrl } = started()
  await page.goto(origin)
  const uri = await copyPairingUri(page, 1)
  const wallet = startCliWallet(['--uri', uri, '--approve', '--auto-sign', '--rpc-url', rpcUrl], {
    cli: installed('.bin', 'pairlink-wallet'),
    cwd: folder,
  })
  try {
    await expect(page.getByTestId('account-address')).toHaveText(ACCOUNT_0, { timeout: 15_000 })
    await expect(page.getByTestId('wallet-name')).toHaveText('Pairlink CLI wallet')
    await signMessage(page)
    expect(wallet.names()).toEqual(expect.arrayContaining(['connected', 'call_request']))
  } finally {
    await wallet.stop()
  }
})

test('without RPC_URL and without @foundry-rs/anvil: exits 1 saying to set RPC_URL or install it', async () => {
  const child = spawn(process.execPath, [installed('@pairlink/server', 'bin', 'pairlink-server.js')], {
    cwd: folder,
    env: { PATH: '/usr/bin:/bin', HOME: work, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const code = await new Promise((resolve) => child.once('exit', resolve))
  expect(code, output).toBe(1)
  expect(output).toContain('pairlink: RPC_URL is unset and the dev chain is not installed')
  expect(output).toContain('npm install @foundry-rs/anvil')
})

test('without DATA_DIR and DATABASE_URL: the embedded database is in .pairlink/db of the working folder', async () => {
  const second = await startProduct(
    { RPC_URL: (anvil as Anvil).url, DATA_DIR: '', DATABASE_URL: '', REDIS_URL: '' },
    { main: installed('@pairlink/server', 'bin', 'pairlink-server.js'), cwd: folder },
  )
  try {
    expect(second.output()).toContain(`database  embedded (SQLite) in ${join(folder, '.pairlink', 'db')}`)
    expect(existsSync(join(folder, '.pairlink', 'db', 'pairlink.sqlite'))).toBe(true)
  } finally {
    await second.stop()
  }
})

/** Signs a message from the web app (`answer` approving it in the wallet, if the wallet asks) and checks it. */
async function signMessage(page: Page, answer?: () => Promise<void>) {
  await page.getByTestId('sign-message-input').fill('Hello from an installed Pairlink')
  await page.getByTestId('sign-message-button').click()
  await answer?.()
  await expect(page.getByTestId('sign-message-verified')).toHaveAttribute('data-verified', 'true', {
    timeout: 15_000,
  })
}
