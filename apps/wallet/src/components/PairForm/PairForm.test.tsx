import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { PairForm } from './PairForm.js'

afterEach(cleanup)

const V2 = `wc:${'7f'.repeat(32)}@2?expiryTimestamp=1700000300&relay-protocol=irn&symKey=${'ab'.repeat(32)}`
const V1 = `wc:00000000-0000-4000-8000-000000000000@1?bridge=http%3A%2F%2F127.0.0.1&key=${'ab'.repeat(32)}`

function Form({ onPair }: { onPair: (uri: string) => void }) {
  const [value, setValue] = useState('')
  return <PairForm value={value} onChange={setValue} onPair={onPair} />
}

describe('PairForm', () => {
  test('default: a pasted link says which WalletConnect version it is, then pairs', () => {
    const onPair = vi.fn()
    render(<Form onPair={onPair} />)
    expect(screen.queryByTestId('protocol-version')).toBeNull()
    const input = screen.getByLabelText('WalletConnect URI')
    fireEvent.change(input, { target: { value: V2 } })
    expect(screen.getByTestId('protocol-version').textContent).toBe('WalletConnect v2')
    fireEvent.change(input, { target: { value: ` ${V1}\n` } })
    expect(screen.getByTestId('protocol-version').textContent).toBe('WalletConnect v1')
    fireEvent.click(screen.getByTestId('pair-button'))
    expect(onPair).toHaveBeenCalledWith(` ${V1}\n`)
  })

  test('behavior: text that is no wc: link names no version', () => {
    render(<Form onPair={vi.fn()} />)
    fireEvent.change(screen.getByLabelText('WalletConnect URI'), { target: { value: 'hello' } })
    expect(screen.queryByTestId('protocol-version')).toBeNull()
  })
})
