#!/usr/bin/env node
// Runs every test of every package: the vitest projects, then the Playwright suites in Debian's Chromium.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined
const bin = (name) => join(root, 'node_modules/.bin', name)
let failed = false

if (!only || only === 'unit') {
  const r = spawnSync(bin('vitest'), ['run'], { cwd: root, stdio: 'inherit' })
  failed ||= r.status !== 0
}

const e2e = join(root, 'e2e')
const hasSpecs = existsSync(e2e) && readdirSync(e2e).some((f) => f.endsWith('.spec.ts'))
if ((!only || only === 'e2e') && hasSpecs) {
  const r = spawnSync(bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
    cwd: root,
    stdio: 'inherit',
  })
  failed ||= r.status !== 0
}

process.exit(failed ? 1 : 0)
