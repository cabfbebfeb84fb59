/**
 * Whether two sets of modal options say the same thing: the same values key by key, arrays element by element,
 * elements (`returnFocusTo`) by identity, functions left out (callbacks are new on every render and are read
 * through the latest props). Unlike a JSON comparison it never throws on a DOM element or a cycle.
 */
export function sameOptions(a: object, b: object): boolean {
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
    const left = x[key]
    const right = y[key]
    if (typeof left === 'function' || typeof right === 'function') continue
    if (Array.isArray(left) && Array.isArray(right)) {
      if (left.length !== right.length || left.some((item, i) => !Object.is(item, right[i]))) return false
    } else if (!Object.is(left, right)) return false
  }
  return true
}
