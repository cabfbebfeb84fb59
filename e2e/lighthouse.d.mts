/** One Lighthouse mobile run, summed up: see e2e/lighthouse.mjs. */
export type LighthouseSummary = {
  /** The four category scores, 0–100 (`null` when Lighthouse could not score one). */
  scores: {
    performance: number | null
    accessibility: number | null
    bestPractices: number | null
    seo: number | null
  }
  /** Bytes transferred by the page load, every request with its headers. */
  transferredBytes: number
  /** The timings behind the performance score (ms, simulated), and the layout shift. */
  metrics: { fcp: number; lcp: number; tbt: number; cls: number | null; speedIndex: number }
}

/** Runs Lighthouse's default mobile audit of `url` in a fresh Debian Chromium. */
export declare function runLighthouse(url: string): Promise<LighthouseSummary>
