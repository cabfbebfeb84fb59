import de from './de.json' with { type: 'json' }
import en from './en.json' with { type: 'json' }
import es from './es.json' with { type: 'json' }
import fa from './fa.json' with { type: 'json' }
import fr from './fr.json' with { type: 'json' }
import ko from './ko.json' with { type: 'json' }
import pt from './pt.json' with { type: 'json' }
import zh from './zh.json' with { type: 'json' }

/** The texts of the modal: the v1 keys (reference §6.7) plus `retry`, `close`, `search`, `error` and `bridge_unreachable`. */
export type Strings = typeof en

/** A language the modal ships: the eight of v1. */
export type Language = 'en' | 'de' | 'es' | 'fr' | 'ko' | 'pt' | 'zh' | 'fa'

const TABLES: Record<Language, Strings> = { en, de, es, fr, ko, pt, zh, fa }

/** Every language the modal ships, English first. */
export const LANGUAGES = Object.keys(TABLES) as readonly Language[]

/**
 * Picks the modal's language: the option if given, else the part of `navigator.language` before `-`
 * (reference §6.2), else English.
 *
 * @example
 * resolveLanguage(undefined, 'de-CH') // 'de'
 */
export function resolveLanguage(
  option?: Language | undefined,
  browserLanguage?: string | undefined,
): Language {
  if (option && option in TABLES) return option
  const prefix = (browserLanguage ?? '').split('-')[0]?.toLowerCase() ?? ''
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
