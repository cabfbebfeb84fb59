import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, test } from 'vitest'
import { account, fakeWallet, renderConnected } from '../../../test/wallet.js'
import { queryClient } from '../../wagmiConfig.js'
import { SignTypedData } from './SignTypedData.js'

afterEach(() => {
  cleanup()
  queryClient.clear()
})

describe('SignTypedData', () => {
  test('default: the wallet signs the Mail for the session’s chain (eth_signTypedData_v4); the signature verifies', async () => {
    const wallet = fakeWallet()
    await renderConnected(<SignTypedData address={account.address} chainId={31337} />, wallet)
    await act(async () => fireEvent.click(screen.getByTestId('sign-typed-data-button')))
    const verified = await screen.findByTestId('sign-typed-data-verified')
    expect(verified.getAttribute('data-verified')).toBe('true')
    expect(wallet.asked).toEqual([
      { method: 'eth_signTypedData_v4', params: [account.address, expect.any(String)] },
    ])
    const typedData = (wallet.asked[0]?.params as string[] | undefined)?.[1] ?? '{}'
    expect(JSON.parse(typedData)).toMatchObject({ primaryType: 'Mail', domain: { chainId: 31337 } })
  })
})
