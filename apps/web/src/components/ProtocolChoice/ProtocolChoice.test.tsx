import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import type { Protocol } from '../../protocolChoice.js'
import { ProtocolChoice } from './ProtocolChoice.js'

afterEach(cleanup)

test('default: v2 and v1 offered, the current one checked; picking v1 reports it', () => {
  const picked: Protocol[] = []
  render(
    <ProtocolChoice
      protocol={2}
      onChange={(protocol) => picked.push(protocol)}
      disabled={false}
      relayNetwork="pairlink"
    />,
  )
  const v2 = screen.getByRole('radio', { name: /WalletConnect v2/ }) as HTMLInputElement
  const v1 = screen.getByRole('radio', { name: /WalletConnect v1/ }) as HTMLInputElement
  expect(v2.checked).toBe(true)
  expect(v1.checked).toBe(false)
  fireEvent.click(v1)
  expect(picked).toEqual([1])
})

test('behavior: locked while a pairing is under way', () => {
  render(<ProtocolChoice protocol={1} onChange={() => {}} disabled={true} relayNetwork="pairlink" />)
  const group = screen.getByRole('group', { name: 'Connect with' }) as HTMLFieldSetElement
  expect(group.disabled).toBe(true)
})

test('behavior: the hints say what each reaches, by relay network — never "today’s wallets"', () => {
  const view = render(
    <ProtocolChoice protocol={2} onChange={() => {}} disabled={false} relayNetwork="pairlink" />,
  )
  const group = () => screen.getByRole('group', { name: 'Connect with' }).textContent ?? ''
  expect(group()).toContain('Pairlink Wallet and wallets set up for this server’s relay')
  expect(group()).not.toMatch(/today|any WalletConnect wallet/i)
  view.rerender(
    <ProtocolChoice protocol={2} onChange={() => {}} disabled={false} relayNetwork="walletconnect" />,
  )
  expect(group()).toContain('any WalletConnect wallet')
})
