import type { ThemeColors } from './light.js'

/** Dark theme; every text colour reaches WCAG AA (4.5:1) on `bg` and `surface`. The QR stays black on white. */
export const dark: ThemeColors = {
  bg: '#1d1f24',
  fg: '#f1f3f5',
  muted: '#aab2bd',
  surface: '#2c3038',
  border: '#4a505b',
  link: '#7db8ff',
  focus: '#7db8ff',
  backdrop: 'rgba(8, 9, 11, 0.9)',
}
