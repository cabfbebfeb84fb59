/**
 * The languages Pairlink speaks — the modal, the web app and the wallet page — and how a language is picked from
 * the browser's tags and how a message's `{placeholders}` are filled. One home for both, so the modal and the apps
 * never disagree about a German browser. No DOM, no tables: the modal's strings and each app's messages are loaded
 * by their owners.
 */

/** A language Pairlink ships. `zh` is Chinese in simplified characters; `pt` is written for Brazil. */
export type Language = 'en' | 'de' | 'es' | 'fr' | 'ko' | 'pt' | 'zh' | 'fa' | 'ja'

/** Every language Pairlink ships, English (the default, always bundled) first. */
export const LANGUAGES: readonly Language[] = ['en', 'de', 'es', 'fr', 'ko', 'pt', 'zh', 'fa', 'ja']

// Traditional Chinese is a written language of its own: a reader in Taiwan or Hong Kong is not handed the
// simplified table, the next tag (or English) speaks instead.
const TRADITIONAL = /^zh-(hant|tw|hk|mo)(-|$)/

/**
 * The shipped language of one BCP 47 tag, by its part before `-` (`pt-BR` → `pt`, `de-CH` → `de`,
 * `zh-CN`/`zh-Hans` → `zh`), or `undefined` when none fits (`it`, and `zh-TW`/`zh-HK`/`zh-MO`/`zh-Hant`).
 *
 * @example
 * toLanguage('pt-BR') // 'pt'
 */
export function toLanguage(tag: string | undefined): Language | undefined {
  const normal = tag?.trim().toLowerCase().replaceAll('_', '-') ?? ''
  if (TRADITIONAL.test(normal)) return undefined
  const prefix = normal.split('-')[0] ?? ''
  return (LANGUAGES as readonly string[]).includes(prefix) ? (prefix as Language) : undefined
}

/**
 * The browser's language: the first of `tags` (`navigator.languages`, most wanted first) that Pairlink ships, else
 * English. Unlike {@link resolveLanguage}, an unshipped tag gives way to the next one: a browser set to Italian,
 * then German, gets German.
 *
 * @example
 * matchLanguage(navigator.languages) // ['it-IT', 'de-DE', 'en'] → 'de'
 */
export function matchLanguage(tags: readonly (string | undefined)[] | undefined): Language {
  for (const tag of tags ?? []) {
    const language = toLanguage(tag)
    if (language) return language
  }
  return 'en'
}

/**
 * Picks the modal's language from language tags, most wanted first (the option, then the page's `<html lang>`,
 * then the browser's language): the first tag given decides; a language Pairlink does not ship gives English rather
 * than a later tag, so a page in Italian does not get a modal in the browser's German.
 *
 * @example
 * resolveLanguage(undefined, 'de-CH', 'fr-FR') // 'de'
 */
export function resolveLanguage(...tags: (string | undefined)[]): Language {
  return toLanguage(tags.find((candidate) => candidate?.trim())) ?? 'en'
}

/** Writing direction of a language: Persian (`fa`) is right to left. */
export function getDirection(language: Language): 'ltr' | 'rtl' {
  return language === 'fa' ? 'rtl' : 'ltr'
}

/**
 * Fills a message's `{name}` placeholders from `values`; a placeholder without a value stays as written.
 *
 * @example
 * formatMessage('Expires in {time}', { time: '4:59' }) // 'Expires in 4:59'
 */
export function formatMessage(message: string, values?: Record<string, string | number | bigint>): string {
  if (!values) return message
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  )
}

/** The values of a message's `{placeholders}`. */
export type MessageValues = Record<string, string | number | bigint>

/** One language's message table: keys to texts with `{placeholders}`; English's type is every table's type. */
export type MessageTable = Record<string, string>

/** What {@link createTranslator} returns: the messages of one language at a time. */
export type Translator<Table extends MessageTable> = {
  /** The language whose table is in use; `'en'` until {@link Translator.use} loaded another. */
  readonly language: Language
  /** The message `key` in the current language, its `{placeholders}` filled from `values`. */
  t: (key: keyof Table & string, values?: MessageValues) => string
  /**
   * Loads the table of `language` (once) and speaks it from then on; resolves with the language in use, which stays
   * the previous one when the table cannot be fetched.
   */
  use: (language: Language) => Promise<Language>
  /**
   * Speaks the browser's language — the first of `tags` (default `navigator.languages`) Pairlink ships, else English —
   * and says so on the page's `<html lang dir>` (which the QR modal follows); resolves with the language in use.
   */
  followBrowser: (tags?: readonly string[] | undefined) => Promise<Language>
}

/**
 * The message mechanism of the web app and the wallet page: English bundled, every other table loaded on demand
 * (a chunk each), each typed as English's (`typeof en`), so a key missing in one language fails the typecheck.
 *
 * @example
 * const i18n = createTranslator(en, { de: () => import('./de.js').then((m) => m.de), … })
 * await i18n.use(matchLanguage(navigator.languages)); i18n.t('greeting', { name })
 */
export function createTranslator<Table extends MessageTable>(
  english: Table,
  loaders: Record<Exclude<Language, 'en'>, () => Promise<Table>>,
): Translator<Table> {
  let language: Language = 'en'
  let table = english
  const tables: Partial<Record<Language, Promise<Table>>> = {}
  const translator: Translator<Table> = {
    get language() {
      return language
    },
    t: (key, values) => formatMessage(table[key] ?? english[key] ?? key, values),
    use: async (next) => {
      if (next === 'en') {
        ;[language, table] = ['en', english]
        return language
      }
      tables[next] ??= loaders[next]().catch((error: unknown) => {
        delete tables[next]
        throw error
      })
      try {
        table = await tables[next]
        language = next
      } catch {
        // The page goes on in the language it has: better than no page.
      }
      return language
    },
    followBrowser: async (tags = globalThis.navigator?.languages) => {
      const used = await translator.use(matchLanguage(tags))
      const root = globalThis.document?.documentElement
      if (root) {
        root.lang = used
        root.dir = getDirection(used)
      }
      return used
    },
  }
  return translator
}
