import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.js'
import { preloadConnected } from './ConnectedView.js'
import { storedBrowserWallet } from './injected/browserWalletStore.js'
import './styles.css'
import { setupLanguage } from './i18n/i18n.js'

/** Whether the client will restore a connected session (v1's `walletconnect` key in `localStorage`). */
function hasStoredSession(): boolean {
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem('walletconnect') ?? 'null') as {
      connected?: unknown
    } | null
    return stored?.connected === true
  } catch {
    return false
  }
}

// A restored session opens on the connected view: its chunk downloads beside the configuration, not after it.
if (hasStoredSession() || storedBrowserWallet()) void preloadConnected().catch(() => {})

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
// The page speaks the browser's language from its first paint: its table (a small chunk) comes before the render.
void setupLanguage().finally(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
)
