import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { waitFor } from '@pairlink/test-kit'
import { within } from '@testing-library/dom'
import { LANGUAGES } from '../src/locales/languages.js'
import { loadStrings } from '../src/locales/strings.js'

/** The 57-wallet registry of `shared/registry/wallets.json` (v2 shape `{ listings, count }`). */
const registry: unknown = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../../shared/registry/wallets.json'), 'utf8'),
)

/** The URI of the reference's deep-link vectors. */
export const uri =
  'wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1?bridge=https%3A%2F%2Fbridge.walletconnect.org&key=41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a'

/** A `fetch` for the registry seam: answers `body` (or fails) and counts calls. */
export function fakeFetch(answers: ('ok' | 'fail' | 'malformed' | 'pending')[] = ['ok']) {
  const calls: string[] = []
  let release: (() => void) | undefined
  const fetch = (async (input: string | URL | Request) => {
    calls.push(String(input))
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]
    if (answer === 'pending') await new Promise<void>((resolve) => (release = resolve))
    if (answer === 'fail') throw new TypeError('Failed to fetch')
    const body = answer === 'malformed' ? { wallets: [] } : registry
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })
  }) as typeof globalThis.fetch
  return { fetch, calls, release: () => release?.() }
}

/** Queries inside the modal's open shadow root. */
export function modal() {
  const host = document.getElementById('walletconnect-wrapper')
  if (!host?.shadowRoot) throw new Error('modal is not open')
  return { host, root: host.shadowRoot, ...within(host.shadowRoot as unknown as HTMLElement) }
}

/** Waits until the open modal has stopped loading (the registry fetch answered and the list, or its error, shows). */
export const flush = () =>
  waitFor(() => !modal().root.textContent?.includes('Loading...'), { message: 'the wallet list loaded' })

/** A registry address for the tests that show a wallet list (without one, and without a project id, none shows). */
export const registryUrl = '/registry/wallets.json'

/**
 * Loads every language's strings: `createModal` speaks a language once its table is in (`open()` and `<QrModal>`
 * wait for it; open.i18n.test.tsx covers that), so tests that call it directly in German load the tables first.
 */
export const loadAllStrings = async () => {
  await Promise.all(LANGUAGES.map(loadStrings))
}
