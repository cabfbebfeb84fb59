#!/usr/bin/env node
// Runs every test of every package: the vitest projects, then the Playwright suites in Debian's Chromium. Ends with
// one plain `N passed, N failed` line over both runners.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined
const bin = (/** @type {string} */ name) => join(root, 'node_modules/.bin', name)
const reports = join(root, '.cache', 'test-reports')
mkdirSync(reports, { recursive: true })
const totals = { passed: 0, failed: 0, skipped: 0 }
let failed = false

if (!only || only === 'unit') {
  const out = join(reports, 'vitest.json')
  const r = spawnSync(
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
  failed ||= r.status !== 0
  const report = readJson(out)
  if (report) {
    totals.passed += report.numPassedTests
    totals.failed += report.numFailedTests
    totals.skipped += report.numPendingTests + report.numTodoTests
  } else failed = true
}

const e2e = join(root, 'e2e')
const hasSpecs =
  existsSync(e2e) && readdirSync(e2e, { recursive: true }).some((f) => String(f).endsWith('.spec.ts'))
if ((!only || only === 'e2e') && hasSpecs) {
  const out = join(reports, 'playwright.json')
  const r = spawnSync(bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
  })
  failed ||= r.status !== 0
  const report = readJson(out)
  if (report) {
    totals.passed += report.stats.expected + report.stats.flaky
    totals.failed += report.stats.unexpected
    totals.skipped += report.stats.skipped
  } else failed = true
}

console.log(
  `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
)
process.exit(failed || totals.failed > 0 ? 1 : 0)

/**
 * A JSON report, or undefined when the runner wrote none (it crashed before the end).
 * @param {string} file
 * @returns {any}
 */
function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}
