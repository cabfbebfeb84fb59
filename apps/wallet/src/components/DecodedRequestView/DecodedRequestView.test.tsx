import { MAIL_TYPED_DATA } from '@pairlink/test-kit'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { decodeRequest } from '../../core/decodeRequest.js'
import { DecodedRequestView } from './DecodedRequestView.js'

afterEach(cleanup)

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const view = (method: string, params: unknown[]) =>
  render(<DecodedRequestView decoded={decodeRequest({ method, params })} />)

describe('DecodedRequestView', () => {
  test('default: a personal_sign message shows its text', () => {
    view('personal_sign', ['0x48656c6c6f0a776f726c64', ADDRESS])
    expect(screen.getByTestId('message-text').textContent).toBe('Hello\nworld')
    expect(screen.getByTestId('message-hex').textContent).toBe('0x48656c6c6f0a776f726c64')
    expect(screen.getByTestId('request-address').textContent).toBe(ADDRESS)
  })

  test('args: binary message shows only hex, with a warning', () => {
    view('personal_sign', [`0x${'00ff'.repeat(16)}`, ADDRESS])
    expect(screen.queryByTestId('message-text')).toBeNull()
    expect(screen.getByText(/not readable text/)).toBeTruthy()
  })

  test('args: typed data shows the domain and each field', () => {
    view('eth_signTypedData_v4', [ADDRESS, JSON.stringify(MAIL_TYPED_DATA)])
    expect(screen.getAllByTestId('typed-data-domain').map((li) => li.textContent)).toContain(
      'name stringEther Mail',
    )
    const fields = screen.getAllByTestId('typed-data-field').map((li) => li.textContent)
    expect(fields).toHaveLength(7)
    expect(fields.at(-1)).toBe('contents stringHello, Bob!')
    expect(screen.getByText('(Mail)')).toBeTruthy()
  })

  test('behavior: an address among the typed-data fields breaks only between its halves', () => {
    view('eth_signTypedData_v4', [ADDRESS, JSON.stringify(MAIL_TYPED_DATA)])
    const wallets = screen
      .getAllByTestId('typed-data-field')
      .filter((li) => li.textContent?.startsWith('wallet'))
    expect(wallets).toHaveLength(2)
    for (const li of wallets) {
      const halves = [...li.querySelectorAll('.address-half')].map((half) => half.textContent ?? '')
      expect(halves).toHaveLength(2)
      expect(halves[0]?.length).toBe(21)
      expect(li.textContent).toBe(`wallet address${halves.join('')}`)
    }
  })

  test('args: a transaction shows to, value in ETH and data', () => {
    const tx = {
      from: ADDRESS,
      to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      value: '0xde0b6b3a7640000',
      data: '0xa9059cbb',
      gas: '0x5208',
    }
    view('eth_sendTransaction', [tx])
    expect(screen.getByTestId('tx-to').textContent).toBe(tx.to)
    expect(screen.getByTestId('tx-value').textContent).toBe('1 ETH')
    expect(screen.getByTestId('tx-data').textContent).toBe('0xa9059cbb')
    expect(screen.getByTestId('tx-gas').textContent).toBe('21000')
    expect(screen.getByText(/sends it to the chain/)).toBeTruthy()
  })

  test('args: contract creation and no data', () => {
    view('eth_signTransaction', [{ from: ADDRESS, value: '0x0' }])
    expect(screen.getByTestId('tx-to').textContent).toBe('New contract')
    expect(screen.getByTestId('tx-data').textContent).toBe('(none)')
    expect(screen.getByText(/without sending it/)).toBeTruthy()
  })

  test('args: switch chain', () => {
    view('wallet_switchEthereumChain', [{ chainId: '0x7a69' }])
    expect(screen.getByTestId('request-chain').textContent).toBe('Anvil dev chain (31337)')
  })

  test('error: unsupported method shows the reason', () => {
    view('eth_decrypt', ['0x00'])
    expect(screen.getByTestId('unsupported-reason').textContent).toBe(
      'The wallet does not support eth_decrypt',
    )
  })
})
