import { RpcError } from '@pairlink/protocol'
import { MAIL_TYPED_DATA, waitFor } from '@pairlink/test-kit'
import { recoverMessageAddress, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startBridge, type TestBridge } from '../test/bridge.js'
import { createDapp, createWallet, dappMeta, next, walletMeta } from '../test/utils.js'
import { createV1, v1Event } from '../test/v1.js'
import { createMemoryStorage } from './storage.js'

const signer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const address = signer.address.toLowerCase()
// The kit's EIP-712 example; viem types `types` without the implied `EIP712Domain`.
const { EIP712Domain: _domainType, ...mailTypes } = MAIL_TYPED_DATA.types
const typedData = { ...MAIL_TYPED_DATA, types: mailTypes }
const txHash = `0x${'ab'.repeat(32)}`

/** Answers requests as a real wallet would: signs with the test key, "sends" transactions, rejects `custom_reject`. */
async function answer(
  method: string,
  params: unknown[],
): Promise<{ result: unknown } | { error: { code: number; message: string } }> {
  if (method === 'personal_sign')
    return { result: await signer.signMessage({ message: { raw: params[0] as `0x${string}` } }) }
  if (method === 'eth_signTypedData') {
    const data = typeof params[1] === 'string' ? JSON.parse(params[1]) : params[1]
    return { result: await signer.signTypedData(data) }
  }
  if (method === 'eth_sendTransaction') return { result: txHash }
  return { error: { code: 4001, message: 'User rejected the request.' } }
}

let bridge: TestBridge
const cleanup: Array<() => unknown> = []
beforeAll(async () => {
  bridge = await startBridge()
})
afterAll(async () => {
  for (const close of cleanup) await close()
  await bridge.stop()
})

describe('our dapp ↔ v1 wallet', () => {
  async function connectV1Wallet(storage = createMemoryStorage()) {
    const dapp = createDapp({ bridge: bridge.url, clientMeta: dappMeta, storage })
    cleanup.push(() => dapp.close())
    const uri = await dapp.createSession({ chainId: 1 })
    const wallet = createV1({ uri, clientMeta: walletMeta })
    cleanup.push(() => wallet.transportClose())
    wallet.on('call_request', async (error, request) => {
      if (error) return
      const response = await answer(request.method, request.params)
      if ('result' in response) wallet.approveRequest({ id: request.id, ...response })
      else wallet.rejectRequest({ id: request.id, error: response.error })
    })
    const { payload } = await v1Event(wallet, 'session_request')
    expect(payload.params[0]).toEqual({ peerId: dapp.clientId, peerMeta: dappMeta, chainId: 1 })
    const connected = next(dapp, 'connect')
    wallet.approveSession({ chainId: 1, accounts: [address] })
    expect(await connected).toEqual({
      peerId: wallet.session.clientId,
      peerMeta: walletMeta,
      chainId: 1,
      accounts: [address],
    })
    return { dapp, wallet, storage }
  }

  test('behavior: approve, personal_sign, eth_sendTransaction, typed data, error', async () => {
    const { dapp } = await connectV1Wallet()
    const signature = await dapp.signPersonalMessage(['Hello World', address])
    expect(
      (
        await recoverMessageAddress({ message: 'Hello World', signature: signature as `0x${string}` })
      ).toLowerCase(),
    ).toBe(address)
    await expect(dapp.sendTransaction({ from: address, to: address, value: 1000, gas: 21000 })).resolves.toBe(
      txHash,
    )
    const typed = await dapp.signTypedData([address, JSON.stringify(typedData)])
    expect(
      (await recoverTypedDataAddress({ ...typedData, signature: typed as `0x${string}` })).toLowerCase(),
    ).toBe(address)
    // v1 wallets overwrite every code with -32000; the message survives.
    const error = await dapp.request({ method: 'custom_reject', params: [] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcError)
    expect(error).toMatchObject({ code: -32000, message: 'User rejected the request.' })
  })

  test('behavior: reject', async () => {
    const dapp = createDapp({ bridge: bridge.url, clientMeta: dappMeta, storage: false })
    cleanup.push(() => dapp.close())
    const uri = await dapp.createSession()
    const wallet = createV1({ uri, clientMeta: walletMeta })
    cleanup.push(() => wallet.transportClose())
    await v1Event(wallet, 'session_request')
    const disconnected = next(dapp, 'disconnect')
    wallet.rejectSession({ message: 'Not today' })
    expect(await disconnected).toEqual({ message: 'Not today' })
    expect(dapp.connected).toBe(false)
  })

  test('behavior: session update and kill from the v1 wallet', async () => {
    const { dapp, wallet } = await connectV1Wallet()
    const updated = next(dapp, 'session_update')
    wallet.updateSession({ chainId: 5, accounts: ['0x0000000000000000000000000000000000000001'] })
    expect(await updated).toEqual({ chainId: 5, accounts: ['0x0000000000000000000000000000000000000001'] })
    expect(dapp.chainId).toBe(5)
    const disconnected = next(dapp, 'disconnect')
    await wallet.killSession()
    expect(await disconnected).toEqual({ message: 'Session disconnected' })
    expect(dapp.connected).toBe(false)
  })

  test('behavior: kill from our dapp', async () => {
    const { dapp, wallet } = await connectV1Wallet()
    const disconnected = v1Event(wallet, 'disconnect')
    await dapp.killSession()
    expect((await disconnected).payload.params[0]).toEqual({ message: 'Session disconnected' })
    expect(wallet.connected).toBe(false)
  })

  test('behavior: our dapp restores after a restart', async () => {
    const { dapp, storage } = await connectV1Wallet()
    dapp.close()
    const restored = createDapp({ bridge: bridge.url, storage })
    cleanup.push(() => restored.close())
    expect(restored.connected).toBe(true)
    const signature = await restored.signPersonalMessage(['again', address])
    expect(
      (
        await recoverMessageAddress({ message: 'again', signature: signature as `0x${string}` })
      ).toLowerCase(),
    ).toBe(address)
  })

  test('behavior: v1 wallet offline and back', async () => {
    const { dapp, wallet } = await connectV1Wallet()
    const session = wallet.session
    const { connections, queued } = bridge.counts()
    wallet.transportClose()
    await waitFor(() => bridge.counts().connections === connections - 1, { message: 'the v1 wallet gone' })
    const pending = dapp.sendTransaction({ from: address, to: address, value: 1 })
    await waitFor(() => bridge.counts().queued > queued, { message: 'the request held by the bridge' })
    const back = createV1({ session, clientMeta: walletMeta })
    cleanup.push(() => back.transportClose())
    back.on('call_request', (_error, request) => back.approveRequest({ id: request.id, result: txHash }))
    await expect(pending).resolves.toBe(txHash)
  })
})

describe('v1 dapp ↔ our wallet', () => {
  async function connectOurWallet(storage = createMemoryStorage()) {
    const dapp = createV1({ bridge: bridge.url, clientMeta: dappMeta })
    cleanup.push(() => dapp.transportClose())
    const displayed = v1Event(dapp, 'display_uri')
    await dapp.createSession({ chainId: 1 })
    const uri: string = (await displayed).payload.params[0]
    const wallet = createWallet({ uri, clientMeta: walletMeta, storage })
    cleanup.push(() => wallet.close())
    serve(wallet)
    const request = await next(wallet, 'session_request')
    expect(request).toEqual({
      id: expect.any(Number),
      peerId: dapp.session.clientId,
      peerMeta: dappMeta,
      chainId: 1,
    })
    const connected = v1Event(dapp, 'connect')
    await wallet.approveSession({ chainId: 1, accounts: [address] })
    expect((await connected).payload.params[0]).toEqual({
      peerId: wallet.clientId,
      peerMeta: walletMeta,
      chainId: 1,
      accounts: [address],
    })
    return { dapp, wallet, storage }
  }

  function serve(wallet: ReturnType<typeof createWallet>) {
    wallet.on('call_request', async (request) => {
      const response = await answer(request.method, request.params as unknown[])
      if ('result' in response) await wallet.approveRequest({ id: request.id, result: response.result })
      else await wallet.rejectRequest({ id: request.id, error: response.error })
    })
  }

  test('behavior: approve, personal_sign, eth_sendTransaction, typed data, error', async () => {
    const { dapp } = await connectOurWallet()
    const signature = await dapp.signPersonalMessage(['Hello World', address])
    expect(
      (
        await recoverMessageAddress({ message: 'Hello World', signature: signature as `0x${string}` })
      ).toLowerCase(),
    ).toBe(address)
    await expect(dapp.sendTransaction({ from: address, to: address, value: 1000 })).resolves.toBe(txHash)
    const typed = await dapp.signTypedData([address, JSON.stringify(typedData)])
    expect(
      (await recoverTypedDataAddress({ ...typedData, signature: typed as `0x${string}` })).toLowerCase(),
    ).toBe(address)
    // Our wallet's 4001 reaches the v1 dapp as an Error with the message (v1 drops codes on the dapp side).
    const error = await dapp
      .sendCustomRequest({ method: 'custom_reject', params: [] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('User rejected the request.')
  })

  test('behavior: reject', async () => {
    const dapp = createV1({ bridge: bridge.url, clientMeta: dappMeta })
    cleanup.push(() => dapp.transportClose())
    const displayed = v1Event(dapp, 'display_uri')
    await dapp.createSession()
    const wallet = createWallet({
      uri: (await displayed).payload.params[0],
      clientMeta: walletMeta,
      storage: false,
    })
    await next(wallet, 'session_request')
    const dappDisconnected = v1Event(dapp, 'disconnect')
    const walletDisconnected = next(wallet, 'disconnect')
    await wallet.rejectSession({ message: 'Not today' })
    expect(await walletDisconnected).toEqual({ message: 'Not today' })
    expect((await dappDisconnected).payload.params[0]).toEqual({ message: 'Not today' })
  })

  test('behavior: session update from our wallet, kill from the v1 dapp', async () => {
    const { dapp, wallet } = await connectOurWallet()
    const updated = v1Event(dapp, 'session_update')
    await wallet.updateSession({ chainId: 5, accounts: [address] })
    expect((await updated).payload.params[0]).toEqual({ chainId: 5, accounts: [address] })
    const disconnected = next(wallet, 'disconnect')
    await dapp.killSession()
    expect(await disconnected).toEqual({ message: 'Session disconnected' })
  })

  test('behavior: kill from our wallet', async () => {
    const { dapp, wallet } = await connectOurWallet()
    const disconnected = v1Event(dapp, 'disconnect')
    await wallet.killSession()
    expect((await disconnected).payload.params[0]).toEqual({ message: 'Session disconnected' })
  })

  test('behavior: our wallet offline, restored after a restart', async () => {
    const { dapp, wallet, storage } = await connectOurWallet()
    const { connections, queued } = bridge.counts()
    wallet.close()
    // Let the bridge see the socket go: a frame racing the close would go to the dying socket (as with any v1 bridge).
    await waitFor(() => bridge.counts().connections === connections - 1, { message: 'our wallet gone' })
    // The request waits at the bridge while the wallet is away.
    const pending = dapp.signPersonalMessage(['while away', address])
    await waitFor(() => bridge.counts().queued > queued, { message: 'the request held by the bridge' })
    const restored = createWallet({ bridge: bridge.url, storage })
    cleanup.push(() => restored.close())
    expect(restored.connected).toBe(true)
    serve(restored)
    const signature = await pending
    expect(
      (
        await recoverMessageAddress({ message: 'while away', signature: signature as `0x${string}` })
      ).toLowerCase(),
    ).toBe(address)
  })
})
