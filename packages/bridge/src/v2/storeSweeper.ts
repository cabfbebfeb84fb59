import type { Sweeper } from '../sweeper.js'
import { isPromise, type RelayContext } from './relayContext.js'
import type { SweepResult } from './store.js'

/** Parameters of {@link createStoreSweeper}. */
export type StoreSweeperParameters = {
  /** How often expired messages are swept, ms. */
  intervalMs: number
  /** Whether the store was started: no sweep before. */
  started(): boolean
}

/**
 * Sweeps the store's expired messages every `intervalMs`, in slices with the event loop free between them: a delivery
 * never waits for a whole sweep.
 */
export function createStoreSweeper(ctx: RelayContext, parameters: StoreSweeperParameters): Sweeper {
  const { store, counts, failed } = ctx
  let sweeping = false
  const sweepSlice = () => {
    let result: SweepResult | Promise<SweepResult>
    try {
      result = store.sweep(Date.now())
    } catch (error) {
      failed(error)
      sweeping = false
      return
    }
    if (isPromise(result))
      result.then(swept, (error: unknown) => {
        failed(error)
        sweeping = false
      })
    else swept(result)
  }
  const swept = (result: SweepResult) => {
    counts.expired += result.expired
    if (result.done) sweeping = false
    else setImmediate(sweepSlice)
  }
  const timer = setInterval(() => {
    if (sweeping || !parameters.started()) return
    sweeping = true
    sweepSlice()
  }, parameters.intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
