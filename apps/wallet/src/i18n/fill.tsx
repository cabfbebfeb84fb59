import { createElement, Fragment, type ReactNode } from 'react'

/**
 * A translated text with elements in place of its `{placeholders}` (a link, an address in `<code>`), so each language
 * puts them where its word order wants them.
 *
 * @example
 * fill(t('connected_to'), { wallet: <span data-testid="wallet-name">{name}</span> })
 */
export function fill(text: string, parts: Record<string, ReactNode>): ReactNode {
  const pieces = text.split(/(\{\w+\})/).map((piece) => {
    const name = /^\{(\w+)\}$/.exec(piece)?.[1]
    return name !== undefined && name in parts ? parts[name] : piece
  })
  // Passed as arguments, not as an array: a fixed sequence, which needs no keys.
  return createElement(Fragment, null, ...pieces.filter((piece) => piece !== ''))
}
