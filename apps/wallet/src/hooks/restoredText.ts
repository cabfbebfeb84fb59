import { PENDING_REQUEST_MAX_AGE_MS } from '../core/pendingRequests.js'

/** The status line after a restore that brought back unanswered requests, or found some too old to answer. */
export function restoredText(dapp: string, waiting: number, expired: number): string {
  const count = (n: number) => (n === 1 ? 'One request' : `${n} requests`)
  let text = `Session with ${dapp} restored.`
  if (waiting > 0) {
    text += ` ${count(waiting)} you had not answered ${waiting === 1 ? 'is' : 'are'} waiting for you.`
  }
  if (expired > 0) {
    const minutes = PENDING_REQUEST_MAX_AGE_MS / 60_000
    text += ` ${count(expired)} waited more than ${minutes} minutes and expired; ${dapp} was told.`
  }
  return text
}
