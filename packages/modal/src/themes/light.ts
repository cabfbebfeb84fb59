/** The colours of a theme, written as CSS custom properties `--<key>` on the modal root. */
export type ThemeColors = {
  bg: string
  fg: string
  muted: string
  surface: string
  border: string
  link: string
  focus: string
  backdrop: string
}

/** Light theme; every text colour reaches WCAG AA (4.5:1) on `bg` and `surface`. */
export const light: ThemeColors = {
  bg: '#ffffff',
  fg: '#1c1e21',
  muted: '#55606d',
  surface: '#eef1f4',
  border: '#c9ced6',
  link: '#1f6fd1',
  focus: '#1f6fd1',
  backdrop: 'rgba(37, 41, 46, 0.95)',
}
