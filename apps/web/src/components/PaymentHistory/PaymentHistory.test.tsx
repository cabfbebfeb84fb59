import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import type { Payment } from '../../serverApi.js'
import { PaymentHistory } from './PaymentHistory.js'

afterEach(cleanup)

const confirmed: Payment = {
  txHash: `0x${'ab'.repeat(32)}`,
  chainId: 31337,
  from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  value: '10000000000000000',
  status: 'confirmed',
  blockNumber: 12,
  confirmations: 3,
  final: false,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:05.000Z',
  confirmedAt: '2030-01-01T00:00:05.000Z',
}

describe('PaymentHistory', () => {
  test('default: one row per payment with amount, status and confirmations', () => {
    const pending: Payment = { ...confirmed, txHash: `0x${'cd'.repeat(32)}`, status: 'pending' }
    render(<PaymentHistory history={{ payments: [pending, confirmed], error: undefined }} />)
    const items = screen.getAllByTestId('payment-history-item')
    expect(items.map((item) => item.getAttribute('data-status'))).toEqual(['pending', 'confirmed'])
    expect(items[1]?.getAttribute('data-confirmations')).toBe('3')
    expect(screen.getAllByTestId('payment-history-amount')[1]?.textContent).toBe('0.01 ETH')
    expect(screen.getAllByTestId('payment-history-status')[1]?.textContent).toBe(
      'Confirmed · block 12 · 3 confirmations',
    )
  })

  test('behavior: loading, then an empty history', () => {
    render(<PaymentHistory history={{ payments: undefined, error: undefined }} />)
    expect(screen.getByRole('status').textContent).toBe('Loading…')
    cleanup()
    render(<PaymentHistory history={{ payments: [], error: undefined }} />)
    expect(screen.getByTestId('payment-history-empty')).toBeTruthy()
  })

  test('error: the list stays while a refresh fails', () => {
    const error = 'The server is unreachable, so the payment history cannot be updated. Retrying…'
    render(<PaymentHistory history={{ payments: [confirmed], error }} />)
    expect(screen.getByTestId('payment-history-error').textContent).toBe(error)
    expect(screen.getAllByTestId('payment-history-item')).toHaveLength(1)
  })
})
