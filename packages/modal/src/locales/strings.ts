import en from './en.json' with { type: 'json' }
import { type Language, matchLanguage, resolveLanguage } from './languages.js'

/**
 * The texts of the modal: the v1 keys (reference §6.7) plus `retry`, `close`, `search`, `error`,
 * `bridge_unreachable` (v1) and `relay_unreachable` (v2), `title`, the countdown's `expires_in` (`{time}` is `m:ss`), `expired` and `refreshing`, and
 * the browser wallets' `installed` and `browser_wallet`, and `relay_refused` (the relay refused the site).
 *
 * A key is added to `en.json` first; every other table then fails the typecheck until it has it too.
 */
export type Strings = typeof en

type Table = Promise<{ default: Strings }>

// English is bundled; every other table is a chunk of its own, fetched the first time a modal speaks it, so the
// modal's first download does not grow with each language it learns.
const LOADERS: Record<Exclude<Language, 'en'>, () => Table> = {
  de: () => import('./de.json', { with: { type: 'json' } }),
  es: () => import('./es.json', { with: { type: 'json' } }),
  fa: () => import('./fa.json', { with: { type: 'json' } }),
  fr: () => import('./fr.json', { with: { type: 'json' } }),
  ja: () => import('./ja.json', { with: { type: 'json' } }),
  ko: () => import('./ko.json', { with: { type: 'json' } }),
  pt: () => import('./pt.json', { with: { type: 'json' } }),
  zh: () => import('./zh.json', { with: { type: 'json' } }),
}

const loaded: Partial<Record<Language, Strings>> = { en }
const loading: Partial<Record<Language, Promise<Strings>>> = {}

/**
 * Loads the strings of one language, once (a failed load is tried again on the next call). `open()` and
 * `<QrModal>` wait for it before they show a modal; an app may call it earlier so that the modal opens at once.
 *
 * @example
 * await loadStrings(resolveModalLanguage()) // then open(uri) shows no English first
 */
export function loadStrings(language: Language): Promise<Strings> {
  if (language === 'en') return Promise.resolve(en)
  const done = loaded[language]
  if (done) return Promise.resolve(done)
  loading[language] ??= LOADERS[language]().then(
    (table) => {
      loaded[language] = table.default
      return table.default
    },
    (error: unknown) => {
      delete loading[language]
      throw error
    },
  )
  return loading[language]
}

/** Whether a language's strings are loaded (English always is). */
export function hasStrings(language: Language): boolean {
  return loaded[language] !== undefined
}

/** The strings of one language once {@link loadStrings} loaded them; English until then. */
export function getStrings(language: Language): Strings {
  return loaded[language] ?? en
}

/**
 * The language a modal opened now speaks: the `language` option, else the page's `<html lang>`, else the first of
 * the browser's languages (`navigator.languages`) that Pairlink ships; English when the first of these given is
 * not shipped.
 *
 * @example
 * resolveModalLanguage('pt-BR') // 'pt'
 */
export function resolveModalLanguage(option?: string): Language {
  const navigator = globalThis.navigator
  return resolveLanguage(
    option,
    globalThis.document?.documentElement.lang,
    matchLanguage(navigator?.languages?.length ? navigator.languages : [navigator?.language]),
  )
}
