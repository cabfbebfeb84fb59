import { waitFor } from '@pairlink/test-kit'
import { recoverMessageAddress, toHex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { startBridge } from '../test/server.js'
import {
  account,
  closeConnectors,
  createDapp,
  createWallet,
  FAKE_TX_HASH,
  nextEvent,
  otherAccount,
  pair,
} from '../test/walletconnect.js'

// The published @walletconnect/client@1.8.0, as dapp and as wallet, through our bridge (memory backend).
let bridge: Awaited<ReturnType<typeof startBridge>>
beforeAll(async () => {
  bridge = await startBridge()
})
afterEach(async () => {
  closeConnectors()
  // Each test starts from a bridge with no socket, so the counters it waits on move for its own sockets only.
  await waitFor(() => bridge.counts.connections === 0, { message: 'every socket closed' })
})
afterAll(() => bridge.close())

describe('interop', () => {
  test('behavior: approve, personal_sign, eth_sendTransaction, session update, kill from the dapp', async () => {
    const { dapp, wallet } = await pair(bridge.url)

    const message = toHex('Sign in to Pairlink')
    const signature = await dapp.signPersonalMessage([message, account.address])
    expect(await recoverMessageAddress({ message: { raw: message }, signature })).toBe(account.address)

    const hash = await dapp.sendTransaction({ from: account.address, to: otherAccount.address, value: '0x1' })
    expect(hash).toBe(FAKE_TX_HASH)

    const updated = nextEvent<{ params: [{ accounts: string[]; chainId: number }] }>(dapp, 'session_update')
    wallet.updateSession({ accounts: [otherAccount.address], chainId: 5 })
    expect((await updated).params[0]).toEqual({ accounts: [otherAccount.address], chainId: 5 })

    const disconnected = nextEvent<{ params: [{ message: string }] }>(wallet, 'disconnect')
    await dapp.killSession()
    expect((await disconnected).params[0].message).toBe('Session disconnected')
  })

  test('behavior: the wallet rejects the session', async () => {
    const dapp = await createDapp(bridge.url)
    const wallet = createWallet({ uri: dapp.uri })
    await nextEvent(wallet, 'session_request')
    const disconnected = nextEvent<{ params: [{ message: string }] }>(dapp, 'disconnect')
    wallet.rejectSession({ message: 'Not today' })
    expect((await disconnected).params[0].message).toBe('Not today')
  })

  test('behavior: the wallet kills the session', async () => {
    const { dapp, wallet } = await pair(bridge.url)
    const disconnected = nextEvent<{ params: [{ message: string }] }>(dapp, 'disconnect')
    await wallet.killSession()
    expect((await disconnected).params[0].message).toBe('Session disconnected')
    expect(dapp.connected).toBe(false)
  })

  test('behavior: a wallet that connects only after the dapp published gets the queued request', async () => {
    const queued = bridge.counts.queued
    const dapp = await createDapp(bridge.url)
    // The session request reaches the bridge and is queued before any wallet exists.
    await waitFor(() => bridge.counts.queued > queued, { message: 'the session request queued' })
    const wallet = createWallet({ uri: dapp.uri })
    await nextEvent(wallet, 'session_request')
    const connected = nextEvent(dapp, 'connect')
    wallet.approveSession({ accounts: [account.address], chainId: 1 })
    await connected
  })

  test('behavior: a wallet that drops offline gets the requests sent meanwhile when it comes back', async () => {
    const { dapp, wallet } = await pair(bridge.url)
    const session = wallet.session
    const connections = bridge.counts.connections
    wallet.transportClose()
    await waitFor(() => bridge.counts.connections === connections - 1, { message: 'the wallet gone' })
    const queued = bridge.counts.queued
    const message = toHex('while you were away')
    const signed = dapp.signPersonalMessage([message, account.address])
    await waitFor(() => bridge.counts.queued > queued, { message: 'the request queued' })
    createWallet({ session })
    const signature = await signed
    expect(await recoverMessageAddress({ message: { raw: message }, signature })).toBe(account.address)
  })
})
