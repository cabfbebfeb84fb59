import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, createLogger } from 'vite'
import { afterAll, describe, expect, test } from 'vitest'

// A first `npm start` builds the apps: what their Vite builds warn about is what a new user reads before the URLs
// (issue 28: ~710 lines of it). Each app is built here as scripts/build.mjs builds it, from its own config, into a
// folder of the test's; every warning fails the test unless ALLOWED names it, with why.

const root = fileURLToPath(new URL('..', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'pairlink-app-builds-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

/**
 * Warnings a build may print, each with the reason it is harmless and cannot be fixed here. Empty: the apps' configs
 * fix what is ours (the wallet's chunks) and name what is third-party and harmless (apps/web's `"use client"`).
 */
const ALLOWED: { pattern: RegExp; why: string }[] = []

/** Builds `app` with its vite.config.ts and returns every warning and error its build logged. */
async function viteWarnings(app: string): Promise<string[]> {
  const warnings: string[] = []
  const logger = createLogger('warn')
  logger.warn = (message) => void warnings.push(message)
  logger.warnOnce = logger.warn
  logger.error = (message) => void warnings.push(message)
  // Vitest sets NODE_ENV=test, which Vite would bundle as is (React's development build): build as `vite build` does.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({
      root: join(root, app),
      configFile: join(root, app, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      customLogger: logger,
      build: { outDir: join(out, app), emptyOutDir: true },
    })
  } finally {
    process.env.NODE_ENV = nodeEnv
  }
  return warnings.filter((warning) => !ALLOWED.some(({ pattern }) => pattern.test(warning)))
}

describe('the apps build without warnings', () => {
  // Bundling takes seconds on an idle machine; the bound only ends a build that hangs on a loaded one.
  const SLOW = { timeout: 180_000 }

  test('apps/web', SLOW, async () => {
    expect(await viteWarnings('apps/web')).toEqual([])
  })

  test('apps/wallet', SLOW, async () => {
    expect(await viteWarnings('apps/wallet')).toEqual([])
  })
})
