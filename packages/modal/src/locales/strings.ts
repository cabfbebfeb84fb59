import de from './de.json' with { type: 'json' }
import en from './en.json' with { type: 'json' }
import es from './es.json' with { type: 'json' }
import fa from './fa.json' with { type: 'json' }
import fr from './fr.json' with { type: 'json' }
import ko from './ko.json' with { type: 'json' }
import pt from './pt.json' with { type: 'json' }
import zh from './zh.json' with { type: 'json' }

/**
 * The texts of the modal: the v1 keys (reference §6.7) plus `retry`, `close`, `search`, `error`,
 * `bridge_unreachable`, `title`, the countdown's `expires_in` (`{time}` is `m:ss`), `expired` and `refreshing`, and
 * the browser wallets' `installed` and `browser_wallet`, and `relay_refused` (the relay refused the site).
 */
export type Strings = typeof en

/** A language the modal ships: the eight of v1. */
export type Language = 'en' | 'de' | 'es' | 'fr' | 'ko' | 'pt' | 'zh' | 'fa'

const TABLES: Record<Language, Strings> = { en, de, es, fr, ko, pt, zh, fa }

/** Every language the modal ships, English first. */
export const LANGUAGES = Object.keys(TABLES) as readonly Language[]

/**
 * Picks the modal's language from language tags, most wanted first (the option, then the page's `<html lang>`,
 * then `navigator.language`): the first tag given decides, by its part before `-`; a language the modal does not
 * ship gives English rather than a later tag, so a page in Italian does not get a modal in the browser's German.
 *
 * @example
 * resolveLanguage(undefined, 'de-CH', 'fr-FR') // 'de'
 */
export function resolveLanguage(...tags: (string | undefined)[]): Language {
  const tag = tags.find((candidate) => candidate?.trim()) ?? ''
  const prefix = tag.trim().split('-')[0]?.toLowerCase() ?? ''
  return prefix in TABLES ? (prefix as Language) : 'en'
}

/** The strings of one language. */
export function getStrings(language: Language): Strings {
  return TABLES[language]
}

/** Writing direction of a language: Persian (`fa`) is right to left. */
export function getDirection(language: Language): 'ltr' | 'rtl' {
  return language === 'fa' ? 'rtl' : 'ltr'
}
