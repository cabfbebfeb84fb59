/**
 * Colour scheme of the modal: `light` or `dark`; `auto` takes the page's declared `color-scheme` (a page that
 * declares only `light` gets a light modal even on a dark system) and follows the system when the page declares
 * both or none; `system` always follows the system's `prefers-color-scheme`.
 */
export type Theme = 'light' | 'dark' | 'auto' | 'system'

/** The scheme the style sheet applies: `system` follows `prefers-color-scheme`. */
export type ResolvedTheme = 'light' | 'dark' | 'system'

/**
 * Resolves a {@link Theme} against the page's declared colour scheme (`color-scheme` of `<html>`, or the
 * `<meta name="color-scheme">` content, e.g. `'light dark'`).
 *
 * @example
 * resolveTheme('auto', 'light') // 'light'
 * resolveTheme('auto', 'light dark') // 'system'
 */
export function resolveTheme(theme: Theme | undefined, declared: string): ResolvedTheme {
  if (theme === 'light' || theme === 'dark' || theme === 'system') return theme
  const tokens = declared.toLowerCase().split(/\s+/)
  const light = tokens.includes('light')
  const dark = tokens.includes('dark')
  if (light === dark) return 'system'
  return light ? 'light' : 'dark'
}

/** The colour scheme the page declares: its root's computed `color-scheme`, else its `color-scheme` meta tag. */
export function readColorScheme(document: Document): string {
  const css = globalThis.getComputedStyle?.(document.documentElement).colorScheme ?? ''
  if (css && css !== 'normal') return css
  return document.querySelector('meta[name="color-scheme"]')?.getAttribute('content') ?? ''
}
