import { afterAll, beforeAll, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../../test/bridge.js'
import { account, pair } from '../../test/utils.js'

let bridge: TestBridge
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(() => bridge.stop())

// sendTransaction, signTransaction, signMessage, signPersonalMessage and signTypedData: the v1 wire method and params.
test('default: each signing action sends its v1 method', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  const seen: [string, unknown][] = []
  wallet.on('call_request', ({ id, method, params }) => {
    seen.push([method, params])
    void wallet.approveRequest({ id, result: `${method}-result` })
  })
  const tx = { from: account, to: account, value: '0x1' }
  await expect(dapp.sendTransaction(tx)).resolves.toBe('eth_sendTransaction-result')
  await expect(dapp.signTransaction(tx)).resolves.toBe('eth_signTransaction-result')
  await expect(dapp.signMessage([account, '0xdeadbeef'])).resolves.toBe('eth_sign-result')
  await expect(dapp.signPersonalMessage(['0xdeadbeef', account])).resolves.toBe('personal_sign-result')
  await expect(dapp.signTypedData([account, '{}'])).resolves.toBe('eth_signTypedData-result')
  expect(seen).toEqual([
    ['eth_sendTransaction', [{ from: account, to: account, value: '0x1', data: '' }]],
    ['eth_signTransaction', [{ from: account, to: account, value: '0x1', data: '' }]],
    ['eth_sign', [account, '0xdeadbeef']],
    ['personal_sign', ['0xdeadbeef', account]],
    ['eth_signTypedData', [account, '{}']],
  ])
  dapp.close()
  wallet.close()
})

test('args: options reach the request (timeout)', async () => {
  const { dapp, wallet } = await pair(bridge.url)
  await expect(dapp.signPersonalMessage(['hi', account], { timeout: 20 })).rejects.toThrowError(
    'timed out after 20 ms',
  )
  dapp.close()
  wallet.close()
})
