/** Attributes and listeners for {@link h}: `on…` keys take a listener, `false`/`undefined` leave the attribute out. */
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>

/** A child of {@link h}: text is set as text, never parsed as HTML (registry names are untrusted). */
export type Child = Node | string | false | null | undefined

/**
 * Creates an element in the global `document`, the one DOM helper of the views.
 *
 * @example
 * h('button', { type: 'button', onclick: () => retry() }, strings.retry)
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(key.slice(2), value)
    else if (value === true) element.setAttribute(key, '')
    else if (value !== false && value !== undefined) element.setAttribute(key, String(value))
  }
  for (const child of children) if (child) element.append(child)
  return element
}
