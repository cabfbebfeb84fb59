import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import type { AppConfig } from '../../hooks/useConfig.js'
import { ConnectIntro } from './ConnectIntro.js'

afterEach(cleanup)

const base: AppConfig = {
  bridge: 'http://x',
  rpcUrl: 'http://x/rpc',
  chainId: 31337,
  registryUrl: 'http://x/registry/wallets.json',
  relayUrl: 'ws://x',
  relayNetwork: 'pairlink',
}
const intro = () => screen.getByTestId('connect-intro').textContent ?? ''

test("default: this server's own relay — no promise of phone wallets, and what the operator must set", () => {
  render(<ConnectIntro config={base} protocol={2} />)
  expect(intro()).toContain('Pairlink Wallet and wallets set up for this relay')
  expect(intro()).toContain('WALLETCONNECT_PROJECT_ID')
  expect(intro()).not.toMatch(/any WalletConnect wallet|today/i)
})

test("args: relayNetwork 'walletconnect' — any WalletConnect wallet, by QR code or the list", () => {
  const config: AppConfig = {
    ...base,
    relayUrl: 'wss://relay.walletconnect.org',
    projectId: 'c0ffee254729296a45a3885639ac7e10',
    relayNetwork: 'walletconnect',
  }
  render(<ConnectIntro config={config} protocol={2} />)
  expect(intro()).toMatch(/^Scan the QR code with any WalletConnect wallet/)
  expect(intro()).not.toContain('WALLETCONNECT_PROJECT_ID')
})

test('args: v1 — the bridge', () => {
  render(<ConnectIntro config={base} protocol={1} />)
  expect(screen.getByTestId('connect-intro').dataset.network).toBe('bridge')
  expect(intro()).toContain("this server's bridge")
})

test('behavior: over v2, approving in the wallet connects and signs in; a wallet that cannot just connects', () => {
  render(<ConnectIntro config={base} protocol={2} />)
  expect(screen.getByTestId('one-click-intro').textContent).toMatch(
    /^Approving the connection in your wallet also signs you in to this site: one approval, no second step\. A wallet that cannot sign in while connecting just connects; you then sign in from the account page\.$/,
  )
})

test('behavior: over v1 (and browser wallets, which say v1) nothing is promised about signing in', () => {
  render(<ConnectIntro config={base} protocol={1} />)
  expect(screen.queryByTestId('one-click-intro')).toBeNull()
})
