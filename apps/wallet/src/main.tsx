import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.js'
import './styles.css'
import { setupLanguage } from './i18n/i18n.js'

const root = document.getElementById('root')
// The page speaks the browser's language from its first paint: its table (a small chunk) comes before the render.
if (root) {
  void setupLanguage().finally(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  )
}
