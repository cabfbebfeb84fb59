import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { StatusBanner } from './StatusBanner.js'

afterEach(cleanup)

describe('StatusBanner', () => {
  test('default: nothing to say, nothing shown', () => {
    const { rerender } = render(
      <StatusBanner notice={undefined} onDismiss={() => {}} bridgeUnreachable={false} rpcError={undefined} />,
    )
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('status')).toBeNull()
    // The same banner with something to say is found by these queries: their null above is the banner's answer.
    rerender(
      <StatusBanner
        notice={{ tone: 'info', text: 'Welcome back.' }}
        onDismiss={() => {}}
        bridgeUnreachable
        rpcError={undefined}
      />,
    )
    expect(screen.getByRole('alert').textContent).toMatch(/bridge is unreachable/)
    expect(screen.getByRole('status').textContent).toContain('Welcome back.')
  })

  test('behavior: an error notice is an alert and can be dismissed', () => {
    const onDismiss = vi.fn()
    render(
      <StatusBanner
        notice={{ tone: 'error', text: 'The wallet rejected the connection.' }}
        onDismiss={onDismiss}
        bridgeUnreachable={false}
        rpcError={undefined}
      />,
    )
    expect(screen.getByRole('alert').textContent).toContain('The wallet rejected the connection.')
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss message' }))
    expect(onDismiss).toHaveBeenCalledOnce()
  })

  test('behavior: bridge and RPC node warnings', () => {
    render(
      <StatusBanner
        notice={{ tone: 'success', text: 'Connected.' }}
        onDismiss={() => {}}
        bridgeUnreachable
        rpcError="The RPC node is unreachable. Retrying…"
      />,
    )
    expect(screen.getByTestId('bridge-warning').textContent).toMatch(/bridge is unreachable\. Retrying/)
    expect(screen.getByTestId('rpc-warning').textContent).toBe('The RPC node is unreachable. Retrying…')
    expect(screen.getByRole('status').textContent).toContain('Connected.')
  })

  test('args: server — v2 calls it the relay', () => {
    render(
      <StatusBanner
        notice={undefined}
        onDismiss={() => {}}
        bridgeUnreachable
        server="relay"
        rpcError={undefined}
      />,
    )
    expect(screen.getByTestId('bridge-warning').textContent).toBe(
      'The relay is unreachable. Retrying… Messages to and from the wallet wait until it is back.',
    )
  })

  test('behavior: one banner per outage — a notice that only says the relay is unreachable waits behind the warning', () => {
    const notice = { tone: 'error', text: "Can't reach the relay right now.", outage: true } as const
    const { rerender } = render(
      <StatusBanner
        notice={notice}
        onDismiss={() => {}}
        bridgeUnreachable
        server="relay"
        rpcError={undefined}
      />,
    )
    expect(screen.getAllByRole('alert').map((banner) => banner.textContent)).toEqual([
      'The relay is unreachable. Retrying… Messages to and from the wallet wait until it is back.',
    ])
    rerender(
      <StatusBanner
        notice={notice}
        onDismiss={() => {}}
        bridgeUnreachable={false}
        server="relay"
        rpcError={undefined}
      />,
    )
    expect(screen.getByTestId('notice').textContent).toBe("Can't reach the relay right now.")
    expect(screen.queryByTestId('bridge-warning')).toBeNull()
  })

  test('behavior: a read failure is shown as the one sentence it is, never wrapped in another', () => {
    const text = 'The RPC node failed to answer: RPC node unreachable. Retrying…'
    render(<StatusBanner notice={undefined} onDismiss={() => {}} bridgeUnreachable={false} rpcError={text} />)
    expect(screen.getByTestId('rpc-warning').textContent).toBe(text)
  })

  test('behavior: a node whose head went back is said so', () => {
    render(
      <StatusBanner
        notice={undefined}
        onDismiss={() => {}}
        bridgeUnreachable={false}
        rpcError={undefined}
        rewind={{ from: 500n, to: 3n }}
      />,
    )
    expect(screen.getByTestId('rpc-rewind').textContent).toBe(
      'The RPC node went back from block #500 to #3: it was restarted or its chain was reset. Balances and blocks now follow its new chain.',
    )
  })
})
