import type { Wallet } from '../registry/formatDeepLink.js'

/** The drawn icon of a wallet: up to two initials on its brand colour. */
export type Monogram = { initials: string; background: string; foreground: string }

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i

/**
 * The wallet's icon without an image request: initials of its short name (`Trust Wallet` → `TW`,
 * `MetaMask` → `MM`, `imToken` → `IT`) on `metadata.colors.primary`, or on a colour derived from the name when
 * the registry gives none; the text is white or black, whichever contrasts more, and on near-white a deep colour
 * derived from the name.
 *
 * @example
 * getMonogram(rainbow) // { initials: 'R', background: '#001e59', foreground: '#fff' }
 */
export function getMonogram(wallet: Pick<Wallet, 'name' | 'shortName' | 'color'>): Monogram {
  const label = wallet.shortName || wallet.name
  const words = label.split(/[^\p{L}\p{N}]+/u).filter(Boolean)
  const first = words[0] ?? '?'
  const initials =
    words.length > 1
      ? first.charAt(0) + (words[1]?.charAt(0) ?? '')
      : first.charAt(0) + (/\p{Lu}/u.exec(first.slice(1))?.[0] ?? '')
  let hash = 0
  for (const char of wallet.name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  const hue = hash % 360
  if (HEX.test(wallet.color)) {
    const luminance = relativeLuminance(wallet.color)
    // WCAG contrast against white (1.05 / (L + 0.05)) versus against black ((L + 0.05) / 0.05).
    const white = 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05
    // Many registry entries give white as their colour: a white tile with black initials reads as a blank
    // placeholder, so on near-white the initials take a deep colour of their own (lightness 32 %: above 4.5:1).
    const foreground = white ? '#fff' : luminance > 0.8 ? `hsl(${hue} 60% 32%)` : '#111'
    return { initials: initials.toUpperCase(), background: wallet.color, foreground }
  }
  // Lightness 36 % keeps white text above 4.5:1 for every hue.
  return { initials: initials.toUpperCase(), background: `hsl(${hue} 60% 36%)`, foreground: '#fff' }
}

function relativeLuminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join('') : hex.slice(1)
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(digits.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
