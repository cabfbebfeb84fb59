/**
 * Keeps Tab and Shift+Tab inside the dialog (WAI-ARIA dialog pattern): from the last control to the first, from the
 * first (or the dialog itself) to the last, and from outside to the nearest end. Disabled controls and links without
 * `href` (an expired code's) are skipped, as the browser skips them.
 *
 * @example
 * if (event.key === 'Tab') trapTab(event, card, shadow)
 */
export function trapTab(event: KeyboardEvent, card: HTMLElement, shadow: ShadowRoot): void {
  const list = [...card.querySelectorAll<HTMLElement>('a[href],button,input,[tabindex="0"]')].filter(
    (element) => !element.hasAttribute('disabled'),
  )
  const first = list[0]
  const last = list[list.length - 1]
  const active = shadow.activeElement as HTMLElement | null
  const inside = active !== null && card.contains(active)
  if (event.shiftKey && (!inside || active === first || active === card)) {
    event.preventDefault()
    last?.focus()
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault()
    first?.focus()
  }
}
