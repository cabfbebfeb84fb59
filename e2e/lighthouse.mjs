// Lighthouse (from npm) against Debian's Chromium: the default mobile run (Moto G Power screen, simulated slow 4G
// and a 4× slower CPU). Shared by the E2E budget spec (e2e/product/lighthouse.spec.ts) and `npm run bench -- web`.
import { createServer } from 'node:net'
import lighthouse from 'lighthouse'
import { chromium } from 'playwright-core'
import { chromiumLaunch } from './chromium.mjs'

/** A free TCP port on 127.0.0.1 for Chromium's DevTools endpoint, which Lighthouse drives. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** @param {number | null | undefined} score Lighthouse's 0–1 score. */
const percent = (score) => (typeof score === 'number' ? Math.round(score * 100) : null)

/**
 * Runs Lighthouse's default mobile audit of `url` in a fresh Chromium and sums it up: the four category scores
 * (0–100), the bytes transferred by the page load (every request, headers included) and the timings behind the
 * performance score, in milliseconds (simulated: what a mid-range phone on slow 4G would see).
 *
 * @param {string} url
 * @example
 * const { scores, transferredBytes } = await runLighthouse('http://127.0.0.1:8080/')
 */
export async function runLighthouse(url) {
  const port = await freePort()
  const browser = await chromium.launch({
    ...chromiumLaunch,
    args: [...chromiumLaunch.args, `--remote-debugging-port=${port}`],
  })
  try {
    const result = await lighthouse(url, { port, logLevel: 'error', output: 'json' })
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`)
    const { categories, audits, runtimeError } = result.lhr
    if (runtimeError)
      throw new Error(`Lighthouse failed on ${url}: ${runtimeError.code} ${runtimeError.message}`)
    const ms = (/** @type {string} */ id) => Math.round(audits[id]?.numericValue ?? Number.NaN)
    return {
      scores: {
        performance: percent(categories.performance?.score),
        accessibility: percent(categories.accessibility?.score),
        bestPractices: percent(categories['best-practices']?.score),
        seo: percent(categories.seo?.score),
      },
      transferredBytes: Math.round(audits['total-byte-weight']?.numericValue ?? Number.NaN),
      metrics: {
        fcp: ms('first-contentful-paint'),
        lcp: ms('largest-contentful-paint'),
        tbt: ms('total-blocking-time'),
        cls: audits['cumulative-layout-shift']?.numericValue ?? null,
        speedIndex: ms('speed-index'),
      },
    }
  } finally {
    await browser.close()
  }
}
