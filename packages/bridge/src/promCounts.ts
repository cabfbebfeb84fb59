import { Counter, Gauge, type Registry } from 'prom-client'

/**
 * Metric factories over plain numbers: the hot path only increments a field; prom-client reads it through `read` when
 * `/metrics` is scraped. Shared by the v1 bridge's and the v2 relay's metrics.
 *
 * @example
 * const { counter } = promCounts(registry, 'pairlink_bridge_')
 * counter('messages_published', 'pub frames accepted', () => counts.published)
 */
export function promCounts(registry: Registry, prefix: string) {
  return {
    /** A value that goes up and down (`{prefix}{name}`). */
    gauge: (name: string, help: string, read: () => number) =>
      new Gauge({
        name: prefix + name,
        help,
        registers: [registry],
        collect() {
          this.set(read())
        },
      }),
    /** A count that only grows (`{prefix}{name}_total`). */
    counter: (name: string, help: string, read: () => number) =>
      new Counter({
        name: `${prefix + name}_total`,
        help,
        registers: [registry],
        collect() {
          this.reset()
          this.inc(read())
        },
      }),
    /** One count per `reason` label, each read from its own field. */
    labelled: (name: string, help: string, reasons: Record<string, () => number>) =>
      new Counter({
        name: `${prefix + name}_total`,
        help,
        labelNames: ['reason'],
        registers: [registry],
        collect() {
          this.reset()
          for (const [reason, read] of Object.entries(reasons)) this.labels(reason).inc(read())
        },
      }),
  }
}
