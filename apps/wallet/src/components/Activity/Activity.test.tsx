import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { EXPIRED_MESSAGE } from '../../core/createWallet.js'
import { Activity } from './Activity.js'

afterEach(cleanup)

const at = new Date(2025, 0, 2, 14, 5).getTime()

describe('Activity', () => {
  test('default: each answer reads as what was asked, by which dapp, when — not as a wire method', () => {
    render(
      <Activity
        items={[
          {
            id: 2,
            method: 'eth_sendTransaction',
            status: 'sent',
            result: '0xabc',
            title: 'Send transaction',
            dapp: 'Pairlink Demo',
            at,
          },
          {
            id: 1,
            method: 'personal_sign',
            status: 'signed',
            result: '0x12',
            title: 'Sign message',
            dapp: 'Pairlink Demo',
            at,
          },
        ]}
      />,
    )
    const titles = screen.getAllByTestId('activity-title').map((e) => e.textContent)
    expect(titles).toEqual(['Send transaction', 'Sign message'])
    const [meta] = screen.getAllByTestId('activity-meta')
    expect(meta?.textContent).toContain('Pairlink Demo · ')
    expect(meta?.querySelector('time')?.getAttribute('dateTime')).toBe(new Date(at).toISOString())
    expect(meta?.querySelector('time')?.textContent).toMatch(/14|2/)
    expect(screen.getByTestId('activity-list').textContent).not.toContain('personal_sign')
  })

  test('behavior: a failure is labelled Failed, a rejection Rejected', () => {
    const error = { code: -32000, message: 'insufficient funds for gas * price + value' }
    render(
      <Activity
        items={[
          {
            id: 2,
            method: 'eth_sendTransaction',
            status: 'failed',
            error,
            title: 'Send transaction',
            dapp: 'D',
            at,
          },
          { id: 1, method: 'personal_sign', status: 'rejected', title: 'Sign message', dapp: 'D', at },
        ]}
      />,
    )
    const badges = screen.getAllByTestId('activity-item').map((e) => e.querySelector('.badge')?.textContent)
    expect(badges).toEqual(['Failed', 'Rejected'])
  })

  test('behavior: a request that expired in a closed wallet is labelled Expired, with why', () => {
    const error = { code: -32603, message: EXPIRED_MESSAGE }
    render(
      <Activity
        items={[
          { id: 1, method: 'personal_sign', status: 'expired', error, title: 'Sign message', dapp: 'D', at },
        ]}
      />,
    )
    const item = screen.getByTestId('activity-item')
    expect(item.getAttribute('data-status')).toBe('expired')
    expect(item.querySelector('.badge')?.textContent).toBe('Expired')
    expect(item.textContent).toContain(EXPIRED_MESSAGE)
  })
})
