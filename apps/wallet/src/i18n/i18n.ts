import { createTranslator, type Language, type MessageValues } from '@pairlink/modal/languages'
import { en, type Messages } from './en.js'

// English is in the page's chunk; each other table is a chunk of its own, fetched before the first render.
const i18n = createTranslator<Messages>(en, {
  de: () => import('./de.js').then((table) => table.de),
  es: () => import('./es.js').then((table) => table.es),
  fa: () => import('./fa.js').then((table) => table.fa),
  fr: () => import('./fr.js').then((table) => table.fr),
  ja: () => import('./ja.js').then((table) => table.ja),
  ko: () => import('./ko.js').then((table) => table.ko),
  pt: () => import('./pt.js').then((table) => table.pt),
  zh: () => import('./zh.js').then((table) => table.zh),
})

/** A key of the wallet page's message table. */
export type MessageKey = keyof Messages

/**
 * The wallet page's text `key` in the page's language, `{placeholders}` filled from `values`.
 *
 * @example
 * t('connected_to', { dapp: 'Pairlink' }) // 'Verbunden mit Pairlink' in a German browser
 */
export function t(key: MessageKey, values?: MessageValues): string {
  return i18n.t(key, values)
}

/** The page's language (a BCP 47 tag for `Intl`). */
export function getLanguage(): Language {
  return i18n.language
}

/**
 * Speaks the browser's language — the first of `navigator.languages` Pairlink ships, else English, as the web app
 * and the modal do — and says so on `<html lang dir>`. The page renders after it, so no English shows first.
 *
 * @example
 * void setupLanguage().finally(render)
 */
export function setupLanguage(tags?: readonly string[] | undefined): Promise<Language> {
  return i18n.followBrowser(tags)
}
