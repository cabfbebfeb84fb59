// What every bench shares: interleaved repetitions and their median, so the figure a reader reproduces with
// `npm run bench` is the typical one, not the luckiest.

/**
 * The median of `values` (the mean of the middle two for an even count).
 * @param {number[]} values
 * @returns {number}
 */
export function median(values) {
  if (values.length === 0) throw new Error('median of nothing')
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  const at = (/** @type {number} */ index) => /** @type {number} */ (sorted[index])
  return sorted.length % 2 ? at(middle) : (at(middle - 1) + at(middle)) / 2
}

/**
 * Runs every measurement once per round, in the same order each round (a, b, a, b, …), `rounds` times, so machine
 * noise hits them alike; resolves with the median of each one's results, under its name, and every result.
 *
 * @template {string} name
 * @param {Record<name, () => Promise<number> | number>} measurements
 * @param {{ rounds?: number }} [options] rounds: @default 5
 * @returns {Promise<{ medians: Record<name, number>, samples: Record<name, number[]> }>}
 */
export async function interleave(measurements, { rounds = 5 } = {}) {
  const names = /** @type {name[]} */ (Object.keys(measurements))
  /** @type {Record<name, number[]>} */
  const samples = Object.create(null)
  for (const name of names) samples[name] = []
  for (let round = 0; round < rounds; round++)
    for (const name of names) samples[name].push(await measurements[name]())
  const medians = /** @type {Record<name, number>} */ (
    Object.fromEntries(names.map((name) => [name, median(samples[name])]))
  )
  return { medians, samples }
}

/**
 * Calls `run` `count` times, each after the last has settled, and resolves with the median of their durations (ms):
 * one round's figure for something quick, such as a request round trip on a live session.
 * @param {number} count
 * @param {() => Promise<unknown>} run
 */
export async function medianTime(count, run) {
  const times = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return median(times)
}

/** @param {number} value  rounded to two decimals */
const round2 = (value) => Math.round(value * 100) / 100

/**
 * The median of the per-round ratios a[i] / b[i] (two measurements taken in the same round), two decimals.
 * @param {number[]} a
 * @param {number[]} b
 */
export const pairedRatio = (a, b) => round2(median(a.map((value, i) => value / (b[i] ?? Number.NaN))))

/**
 * Every round's ratio a[i] / b[i] (two measurements taken in the same round), two decimals: the spread behind a
 * `pairedRatio`.
 * @param {number[]} a
 * @param {number[]} b
 */
export const ratiosPerRound = (a, b) => a.map((value, i) => round2(value / (b[i] ?? Number.NaN)))

/** @param {number[]} values  their geometric mean, two decimals (the mean of ratios) */
export const geomean = (values) =>
  round2(Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length))

/** @param {number[]} values  [min, max] */
export const range = (values) => [Math.min(...values), Math.max(...values)]
