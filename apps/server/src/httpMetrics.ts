import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { Readiness } from './ready.js'
import type { RequestRecord } from './requestLog.js'

/** Methods kept as a label value; any other is counted as `other`, so a client cannot grow the label set. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Upper bounds of the duration histogram, in seconds: a static file takes a millisecond, a sign-in an RPC call. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Return type of {@link createHttpMetrics}. */
export type HttpMetrics = {
  /** Counts one finished request (`RequestLogParameters.onEnd`). */
  observe(record: RequestRecord): void
}

const madeFor = new WeakMap<Registry, HttpMetrics>()

/** Parameters of {@link createHttpMetrics}. */
export type CreateHttpMetricsParameters = {
  /** The bridge's registry: the server's metrics are scraped at the same `/metrics`. */
  registry: Registry
  /** Read at each scrape for `pairlink_server_ready` (a round of checks is reused for a second). */
  readiness?: Readiness | undefined
}

/**
 * The server's own metrics beside the bridge's: `pairlink_server_http_requests_total{route,method,status}`,
 * `pairlink_server_http_request_duration_seconds{route,method}` and, with `readiness`,
 * `pairlink_server_ready{dependency}` (1 ready, 0 not) and `pairlink_server_ready_check_seconds{dependency}`.
 * `route` is the pattern that answered (`/api/nonce`, `/wallet/*`, `*`), never the raw path.
 * @example
 * const metrics = createHttpMetrics({ registry: bridge.metrics.registry, readiness })
 * createRequestLog({ logger, onEnd: metrics.observe })
 */
export function createHttpMetrics(parameters: CreateHttpMetricsParameters): HttpMetrics {
  const { registry, readiness } = parameters
  // One set per registry: servers sharing a bridge (tests do) count into the same metrics, the first one's readiness.
  const made = madeFor.get(registry)
  if (made) return made
  const requests = new Counter({
    name: 'pairlink_server_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'pairlink_server_http_request_duration_seconds',
    help: 'Time from an HTTP request arriving to its answer written, by route pattern and method',
    labelNames: ['route', 'method'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })
  if (readiness) {
    // Both read the same round: scrapes collect metrics concurrently, and a round in progress is joined.
    new Gauge({
      name: 'pairlink_server_ready',
      help: 'Whether each dependency passed its last readiness check (1) or not (0), as GET /ready reports',
      labelNames: ['dependency'],
      registers: [registry],
      async collect() {
        for (const [dependency, result] of Object.entries((await readiness.check()).checks))
          this.set({ dependency }, result.ok ? 1 : 0)
      },
    })
    new Gauge({
      name: 'pairlink_server_ready_check_seconds',
      help: 'Time the last readiness check of each dependency took',
      labelNames: ['dependency'],
      registers: [registry],
      async collect() {
        for (const [dependency, result] of Object.entries((await readiness.check()).checks))
          this.set({ dependency }, result.ms / 1000)
      },
    })
  }
  const metrics: HttpMetrics = {
    observe({ route, method, status, ms }) {
      const label = METHODS.has(method) ? method : 'other'
      requests.inc({ route, method: label, status: String(status) })
      duration.observe({ route, method: label }, ms / 1000)
    },
  }
  madeFor.set(registry, metrics)
  return metrics
}
