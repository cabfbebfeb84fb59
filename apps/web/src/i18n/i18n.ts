import { createTranslator, type Language, type MessageValues } from '@pairlink/modal/languages'
import { en, type Messages } from './en.js'

// English is in the first chunk; each other table is a chunk of its own, fetched before the first render.
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

/** A key of the web app's message table. */
export type MessageKey = keyof Messages

/**
 * The web app's text `key` in the page's language, `{placeholders}` filled from `values`.
 *
 * @example
 * t('connected_notice', { wallet: 'MetaMask' }) // 'Verbunden mit MetaMask.' in a German browser
 */
export function t(key: MessageKey, values?: MessageValues): string {
  return i18n.t(key, values)
}

/**
 * `key_one` or `key_other` by the language's plural rules, `{count}` filled in.
 *
 * @example
 * plural('confirmations', 3) // '3 confirmations'
 */
export function plural(key: 'confirmations' | 'seconds', count: number): string {
  const form = new Intl.PluralRules(i18n.language).select(count) === 'one' ? 'one' : 'other'
  return t(`${key}_${form}`, { count: formatNumber(count) })
}

/** The page's language (a BCP 47 tag for `Intl`). */
export function getLanguage(): Language {
  return i18n.language
}

/** A number in the page's language (`1,234` in English, `1.234` in German). */
export function formatNumber(value: number | bigint): string {
  return new Intl.NumberFormat(i18n.language).format(value)
}

/**
 * Speaks the browser's language — the first of `navigator.languages` Pairlink ships, else English — and says so on
 * `<html lang dir>`, which the QR modal follows too. The app renders after it, so no English shows first.
 *
 * @example
 * void setupLanguage().finally(render)
 */
export function setupLanguage(tags?: readonly string[] | undefined): Promise<Language> {
  return i18n.followBrowser(tags)
}
