import { Counter, Gauge, type Registry } from 'prom-client'

/**
 * Metric factories over a record of plain numbers: the hot path only increments a field; prom-client reads it when
 * `/metrics` is scraped. A metric names the field it reads, or a function for a value computed at scrape time.
 * Shared by the v1 bridge's and the v2 relay's metrics.
 *
 * @example
 * const { counter } = promCounts(registry, 'pairlink_bridge_', counts)
 * counter('messages_published', 'pub frames accepted', 'published')
 */
export function promCounts<Counts extends Record<string, number>>(
  registry: Registry,
  prefix: string,
  counts: Counts,
) {
  type Read = keyof Counts | (() => number)
  const value = (read: Read) => (typeof read === 'function' ? read() : counts[read])
  return {
    /** A value that goes up and down (`{prefix}{name}`). */
    gauge: (name: string, help: string, read: Read) =>
      new Gauge({
        name: prefix + name,
        help,
        registers: [registry],
        collect() {
          this.set(value(read))
        },
      }),
    /** A count that only grows (`{prefix}{name}_total`). */
    counter: (name: string, help: string, read: Read) =>
      new Counter({
        name: `${prefix + name}_total`,
        help,
        registers: [registry],
        collect() {
          this.reset()
          this.inc(value(read))
        },
      }),
    /** One count per `reason` label, each read from its own field. */
    labelled: (name: string, help: string, reasons: Record<string, Read>) =>
      new Counter({
        name: `${prefix + name}_total`,
        help,
        labelNames: ['reason'],
        registers: [registry],
        collect() {
          this.reset()
          for (const [reason, read] of Object.entries(reasons)) this.labels(reason).inc(value(read))
        },
      }),
  }
}
