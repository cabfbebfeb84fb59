import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { createPublicClient, createWalletClient, custom } from 'viem'
import { mainnet } from 'viem/chains'
import { afterEach, describe, expect, test } from 'vitest'
import { createConfig, WagmiProvider } from 'wagmi'
import { SendPayment, type SendPaymentProps } from './SendPayment.js'

afterEach(cleanup)

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

/** The card on a session at Ethereum (1) while the app's node serves the dev chain: no request may reach the wallet. */
function renderOffChain(protocol: SendPaymentProps['protocol']) {
  const asked: string[] = []
  // The one seam: an EIP-1193 provider recording what the card asks (the recipient's balance, never a payment).
  const transport = custom({
    request: async ({ method }) => {
      asked.push(method)
      return '0x0'
    },
  })
  // wagmi reads (the recipient's balance) through the same seam.
  const config = createConfig({ chains: [mainnet], transports: { [mainnet.id]: transport }, storage: null })
  render(
    <WagmiProvider config={config}>
      <QueryClientProvider client={new QueryClient()}>
        <SendPayment
          walletClient={createWalletClient({ transport })}
          publicClient={createPublicClient({ transport })}
          address={ADDRESS}
          chainId={1}
          appChainId={31337}
          protocol={protocol}
          balance={10n ** 22n}
          blockNumber={42n}
          signedIn={false}
          onSent={() => {}}
          lastRecord={undefined}
        />
      </QueryClientProvider>
    </WagmiProvider>,
  )
  return asked
}

async function send() {
  await act(async () => fireEvent.click(screen.getByTestId('payment-send-button')))
  return screen.getByTestId('payment-invalid')
}

describe('SendPayment', () => {
  test('error: v1 — a wallet on another chain is told to switch back; the wallet is not asked', async () => {
    const asked = renderOffChain(undefined)
    const invalid = await send()
    expect(invalid.textContent).toBe(
      'The wallet is on another chain (Ethereum (1)): payments here go on Anvil dev chain (31337). Switch the wallet back first.',
    )
    expect(invalid.getAttribute('data-field')).toBe('chain')
    expect(asked).not.toContain('eth_sendTransaction')
  })

  test('error: protocol 2 — the session is on another chain, and Switch chain moves it back', async () => {
    const asked = renderOffChain(2)
    const invalid = await send()
    expect(invalid.textContent).toBe(
      'This session is on another chain (Ethereum (1)): payments here go on Anvil dev chain (31337). Switch chain back to Anvil dev chain (31337) first.',
    )
    expect(invalid.getAttribute('data-field')).toBe('chain')
    expect(asked).not.toContain('eth_sendTransaction')
  })
})
