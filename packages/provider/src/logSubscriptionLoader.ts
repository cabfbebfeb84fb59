import type { LogSubscriptions, LogSubscriptionsParameters } from './logSubscription.js'

/** Return type of {@link createLogSubscriptionLoader}: {@link LogSubscriptions} whose `add` loads the code first. */
export type LogSubscriptionLoader = Omit<LogSubscriptions, 'add'> & {
  /** Loads the logs code (once), then adds the subscription. */
  add(...args: Parameters<LogSubscriptions['add']>): Promise<void>
}

/**
 * The provider's logs subscriptions as a chunk of their own (`logSubscription.js`), fetched by the first
 * `eth_subscribe('logs')`: an app that never subscribes to logs never downloads it. Until then there is nothing to
 * follow, so every other call is a no-op.
 *
 * @example
 * const logs = createLogSubscriptionLoader({ request: http.request, onLog })
 * await logs.add('0x1', { address }, tracker.latestBlock)
 */
export function createLogSubscriptionLoader(parameters: LogSubscriptionsParameters): LogSubscriptionLoader {
  let logs: LogSubscriptions | undefined
  let loading: Promise<LogSubscriptions> | undefined
  return {
    async add(...args) {
      loading ??= import('./logSubscription.js').then((module) => {
        logs = module.createLogSubscriptions(parameters)
        return logs
      })
      ;(await loading).add(...args)
    },
    delete: (id) => logs?.delete(id) ?? false,
    clear: () => logs?.clear(),
    reset: () => logs?.reset(),
    onBlock: (block) => logs?.onBlock(block),
    flush: async () => logs?.flush(),
    get size() {
      return logs?.size ?? 0
    },
  }
}
