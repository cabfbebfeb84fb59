import { MAIL_TYPED_DATA } from '@pairlink/test-kit'
import { describe, expect, test } from 'vitest'
import { decodeRequest, toText } from './decodeRequest.js'

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('decodeRequest', () => {
  test('default: personal_sign with hex text', () => {
    expect(decodeRequest({ method: 'personal_sign', params: ['0x48656c6c6f0a776f726c64', ADDRESS] })).toEqual(
      {
        kind: 'message',
        method: 'personal_sign',
        title: 'Sign message',
        address: ADDRESS,
        text: 'Hello\nworld',
        hex: '0x48656c6c6f0a776f726c64',
      },
    )
  })

  test('args: personal_sign with plain text and swapped params', () => {
    const view = decodeRequest({ method: 'personal_sign', params: [ADDRESS, 'Sign in to Pairlink'] })
    expect(view).toMatchObject({
      kind: 'message',
      address: ADDRESS,
      text: 'Sign in to Pairlink',
      hex: '0x5369676e20696e20746f20506169726c696e6b',
    })
  })

  test('args: personal_sign with binary data shows no text', () => {
    const hash = `0x${'00ff'.repeat(16)}`
    expect(decodeRequest({ method: 'personal_sign', params: [hash, ADDRESS] })).toMatchObject({
      text: undefined,
      hex: hash,
    })
  })

  test('args: eth_sign takes [address, data]', () => {
    expect(decodeRequest({ method: 'eth_sign', params: [ADDRESS, '0x6869'] })).toMatchObject({
      kind: 'message',
      title: 'Sign message (eth_sign)',
      address: ADDRESS,
      text: 'hi',
    })
  })

  test.each(['eth_signTypedData', 'eth_signTypedData_v3', 'eth_signTypedData_v4'])('args: %s', (method) => {
    const view = decodeRequest({ method, params: [ADDRESS, JSON.stringify(MAIL_TYPED_DATA)] })
    expect(view).toEqual({
      kind: 'typedData',
      method,
      title: 'Sign typed data',
      address: ADDRESS,
      primaryType: 'Mail',
      domain: [
        { name: 'name', type: 'string', value: 'Ether Mail', depth: 0 },
        { name: 'version', type: 'string', value: '1', depth: 0 },
        { name: 'chainId', type: 'uint256', value: '31337', depth: 0 },
        {
          name: 'verifyingContract',
          type: 'string',
          value: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
          depth: 0,
        },
      ],
      fields: [
        { name: 'from', type: 'Person', value: '', depth: 0 },
        { name: 'name', type: 'string', value: 'Cow', depth: 1 },
        { name: 'wallet', type: 'address', value: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826', depth: 1 },
        { name: 'to', type: 'Person', value: '', depth: 0 },
        { name: 'name', type: 'string', value: 'Bob', depth: 1 },
        { name: 'wallet', type: 'address', value: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB', depth: 1 },
        { name: 'contents', type: 'string', value: 'Hello, Bob!', depth: 0 },
      ],
    })
  })

  test('args: typed data as an object, arrays of structs', () => {
    const typedData = {
      types: { Group: [{ name: 'members', type: 'Person[]' }], Person: [{ name: 'name', type: 'string' }] },
      primaryType: 'Group',
      domain: {},
      message: { members: [{ name: 'Ann' }, { name: 'Ben' }] },
    }
    const view = decodeRequest({ method: 'eth_signTypedData_v4', params: [ADDRESS, typedData] })
    expect(view.kind === 'typedData' && view.fields).toEqual([
      { name: 'members', type: 'Person[]', value: '2 items', depth: 0 },
      { name: 'members[0]', type: 'Person', value: '', depth: 1 },
      { name: 'name', type: 'string', value: 'Ann', depth: 2 },
      { name: 'members[1]', type: 'Person', value: '', depth: 1 },
      { name: 'name', type: 'string', value: 'Ben', depth: 2 },
    ])
  })

  test('args: eth_sendTransaction as v1 sends it', () => {
    const tx = {
      from: ADDRESS,
      to: TO,
      gasPrice: '0x3b9aca00',
      gas: '0x5208',
      value: '0x2386f26fc10000',
      data: '',
    }
    expect(decodeRequest({ method: 'eth_sendTransaction', params: [tx] })).toEqual({
      kind: 'transaction',
      method: 'eth_sendTransaction',
      title: 'Send transaction',
      broadcast: true,
      from: ADDRESS,
      to: TO,
      value: '0.01',
      data: '0x',
      gas: '21000',
      nonce: undefined,
      fees: '1 gwei',
    })
  })

  test('args: eth_signTransaction, contract creation with data', () => {
    const view = decodeRequest({
      method: 'eth_signTransaction',
      params: [{ from: ADDRESS, data: '0x6001', nonce: '0x7' }],
    })
    expect(view).toMatchObject({
      kind: 'transaction',
      title: 'Sign transaction',
      broadcast: false,
      to: undefined,
      value: '0',
      data: '0x6001',
      nonce: '7',
    })
  })

  test('args: wallet_switchEthereumChain and wallet_addEthereumChain', () => {
    expect(decodeRequest({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] })).toEqual({
      kind: 'switchChain',
      method: 'wallet_switchEthereumChain',
      title: 'Switch chain',
      chainId: 31337,
      chainName: 'Anvil dev chain',
    })
    const add = { chainId: '0x2105', chainName: 'Base', rpcUrls: ['https://base.example'] }
    expect(decodeRequest({ method: 'wallet_addEthereumChain', params: [add] })).toMatchObject({
      kind: 'addChain',
      chainId: 8453,
      chainName: 'Base',
      rpcUrls: ['https://base.example'],
    })
  })

  test('args: eth_accounts and eth_chainId', () => {
    expect(decodeRequest({ method: 'eth_accounts', params: [] }).kind).toBe('info')
    expect(decodeRequest({ method: 'eth_chainId' } as never).kind).toBe('info')
  })

  test('error: unsupported method names it', () => {
    expect(decodeRequest({ method: 'eth_getEncryptionPublicKey', params: [ADDRESS] })).toEqual({
      kind: 'unsupported',
      method: 'eth_getEncryptionPublicKey',
      title: 'Unsupported request',
      reason: 'The wallet does not support eth_getEncryptionPublicKey',
      params: `[\n  "${ADDRESS}"\n]`,
    })
  })

  test('error: malformed params decode to unsupported with the reason', () => {
    expect(decodeRequest({ method: 'eth_signTypedData_v4', params: [ADDRESS, '{not json'] })).toMatchObject({
      kind: 'unsupported',
      reason: 'Invalid params: eth_signTypedData_v4 typed data is not valid JSON',
    })
    expect(decodeRequest({ method: 'eth_sendTransaction', params: ['nope'] })).toMatchObject({
      kind: 'unsupported',
      reason: 'Invalid params: eth_sendTransaction needs a transaction object',
    })
    expect(
      decodeRequest({ method: 'eth_sendTransaction', params: [{ from: ADDRESS, value: '1.5' }] }),
    ).toMatchObject({
      reason: 'Invalid params: "value" is not a quantity',
    })
    expect(
      decodeRequest({
        method: 'eth_signTypedData',
        params: [ADDRESS, [{ type: 'string', name: 'a', value: 'b' }]],
      }),
    ).toMatchObject({
      reason: 'eth_signTypedData with legacy (v1 array) typed data is not supported',
    })
    expect(decodeRequest({ method: 'personal_sign', params: [] })).toMatchObject({
      reason: 'Invalid params: personal_sign needs a message',
    })
    expect(decodeRequest({ method: 'wallet_switchEthereumChain', params: [{}] })).toMatchObject({
      reason: 'wallet_switchEthereumChain needs a chainId',
    })
  })
})

describe('toText', () => {
  test('default', () => {
    expect(toText('0x68c3a9')).toBe('hé')
  })

  test('behavior: empty, invalid UTF-8 and control characters', () => {
    expect(toText('0x')).toBe('')
    expect(toText('0xff')).toBeUndefined()
    expect(toText('0x6100')).toBeUndefined()
    expect(toText('0x61090a62')).toBe('a\t\nb')
  })
})
