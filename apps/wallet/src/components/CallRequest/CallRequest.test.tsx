import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { CallRequest, RequestResult } from './CallRequest.js'

afterEach(cleanup)

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const request = { id: 7, jsonrpc: '2.0' as const, method: 'personal_sign', params: ['0x6869', ADDRESS] }

describe('CallRequest', () => {
  test('default: approve and reject call back with the request', async () => {
    const onApprove = vi.fn()
    const onReject = vi.fn()
    render(
      <CallRequest request={request} dappName="Demo" waiting={0} onApprove={onApprove} onReject={onReject} />,
    )
    expect(screen.getByTestId('request-title').textContent).toBe('Sign message')
    expect(screen.getByTestId('request-method').textContent).toBe('personal_sign')
    expect(screen.getByTestId('message-text').textContent).toBe('hi')
    fireEvent.click(screen.getByTestId('approve-request'))
    await vi.waitFor(() => expect(onApprove).toHaveBeenCalledWith(request))
    await vi.waitFor(() =>
      expect((screen.getByTestId('reject-request') as HTMLButtonElement).disabled).toBe(false),
    )
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }))
    await vi.waitFor(() => expect(onReject).toHaveBeenCalledWith(request))
  })

  test('behavior: buttons lock while the answer is under way', async () => {
    let finish!: () => void
    const onApprove = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    render(
      <CallRequest request={request} dappName="Demo" waiting={2} onApprove={onApprove} onReject={vi.fn()} />,
    )
    expect(screen.getByText(/2 more waiting/)).toBeTruthy()
    fireEvent.click(screen.getByTestId('approve-request'))
    await vi.waitFor(() =>
      expect((screen.getByTestId('reject-request') as HTMLButtonElement).disabled).toBe(true),
    )
    fireEvent.click(screen.getByTestId('approve-request'))
    expect(onApprove).toHaveBeenCalledTimes(1)
    finish()
    await vi.waitFor(() =>
      expect((screen.getByTestId('approve-request') as HTMLButtonElement).disabled).toBe(false),
    )
  })

  test('behavior: an unsupported request can only be rejected', () => {
    const unsupported = { id: 8, jsonrpc: '2.0' as const, method: 'eth_decrypt', params: [] }
    render(
      <CallRequest
        request={unsupported}
        dappName="Demo"
        waiting={0}
        onApprove={vi.fn()}
        onReject={vi.fn()}
      />,
    )
    expect((screen.getByTestId('approve-request') as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByTestId('reject-request') as HTMLButtonElement).disabled).toBe(false)
  })

  test('args: a transaction to send says so on the button', () => {
    const tx = {
      id: 9,
      jsonrpc: '2.0' as const,
      method: 'eth_sendTransaction',
      params: [{ from: ADDRESS, to: ADDRESS }],
    }
    render(<CallRequest request={tx} dappName="Demo" waiting={0} onApprove={vi.fn()} onReject={vi.fn()} />)
    expect(screen.getByTestId('approve-request').textContent).toBe('Approve and send')
  })
})

describe('RequestResult', () => {
  test('default: a sent transaction shows its hash', () => {
    const onDone = vi.fn()
    const hash = `0x${'ab'.repeat(32)}`
    render(
      <RequestResult
        outcome={{ id: 1, method: 'eth_sendTransaction', status: 'sent', result: hash }}
        onDone={onDone}
      />,
    )
    expect(screen.getByTestId('tx-hash').textContent).toBe(hash)
    fireEvent.click(screen.getByTestId('request-done'))
    expect(onDone).toHaveBeenCalled()
  })

  test('error: a failed request shows the error the dapp got, and is not called a rejection', () => {
    const error = {
      code: -32000,
      message:
        "insufficient funds for gas * price + value: the account's balance does not cover 20000 ETH plus gas",
    }
    render(
      <RequestResult
        outcome={{ id: 1, method: 'eth_sendTransaction', status: 'failed', error }}
        onDone={vi.fn()}
      />,
    )
    expect(screen.getByTestId('request-error').textContent).toBe(`${error.message} (code -32000)`)
    expect(screen.getByTestId('result-title').textContent).toBe('Failed: insufficient funds')
    expect(screen.getByTestId('request-result').textContent).not.toMatch(/reject/i)
  })

  test('error: a transaction for another chain says so', () => {
    const error = {
      code: -32603,
      message: 'The wallet is on another chain: its session is on Ethereum (1), …',
    }
    render(
      <RequestResult
        outcome={{ id: 1, method: 'eth_sendTransaction', status: 'failed', error }}
        onDone={vi.fn()}
      />,
    )
    expect(screen.getByTestId('result-title').textContent).toBe('Failed: the wallet is on another chain')
  })

  test('behavior: the person’s own no is a rejection', () => {
    const error = { code: 4001, message: 'User rejected the request.' }
    render(
      <RequestResult
        outcome={{ id: 1, method: 'personal_sign', status: 'rejected', error }}
        onDone={vi.fn()}
      />,
    )
    expect(screen.getByTestId('result-title').textContent).toBe('Rejected')
  })
})
