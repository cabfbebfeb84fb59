import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { ConnectedViewProps } from './ConnectedView.js'

afterEach(cleanup)
beforeEach(() => {
  vi.resetModules()
  vi.doUnmock('./Connected.js')
})

// The props pass through untouched; only the session is read by the stand-in view below.
const props = {
  pairlink: {},
  state: {},
  session: { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', chainId: 31337, peerMeta: null },
  banner: <p>banner</p>,
} as unknown as ConnectedViewProps

/** Stand-ins for the connected view's chunk. */
function FakeConnected({ session }: Pick<ConnectedViewProps, 'session'>) {
  return <p>account {session.address}</p>
}
function Loaded() {
  return <p>loaded</p>
}

test('default: the banner and "Loading…" until the chunk is there, then the connected view', async () => {
  vi.doMock('./Connected.js', () => ({ Connected: FakeConnected }))
  const { ConnectedView } = await import('./ConnectedView.js')
  render(<ConnectedView {...props} />)
  expect(screen.getByRole('status').textContent).toBe('Loading…')
  expect(screen.getByText('banner')).toBeTruthy()
  expect(await screen.findByText(`account ${props.session.address}`)).toBeTruthy()
})

test('behavior: a chunk that cannot be loaded is said in plain words, and the next attempt loads it again', async () => {
  vi.doMock('./Connected.js', () => {
    throw new TypeError('Failed to fetch dynamically imported module')
  })
  const { ConnectedView, preloadConnected } = await import('./ConnectedView.js')
  render(<ConnectedView {...props} />)
  const alert = await screen.findByRole('alert')
  expect(alert.textContent).toBe(
    'The account view could not be loaded. Check your connection and reload the page.',
  )
  expect(screen.getByText('banner')).toBeTruthy()
  vi.doUnmock('./Connected.js')
  vi.doMock('./Connected.js', () => ({ Connected: Loaded }))
  await expect(preloadConnected()).resolves.toHaveProperty('Connected')
})
