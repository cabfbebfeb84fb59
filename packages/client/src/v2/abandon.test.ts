import { parsePairingUri } from '@pairlink/protocol/v2'
import { waitFor } from '@pairlink/test-kit'
import { expect, test } from 'vitest'
import { approveAsSdkWallet } from '../../test/auth.js'
import { next } from '../../test/peers.js'
import {
  createWalletKit,
  dappMetadata,
  events,
  grant,
  methods,
  useRelay,
  walletMetadata,
} from '../../test/sdk.js'
import { createMemoryStorage, type SessionStorage } from '../storage.js'
import { abandon, approve, authenticate, connect, getSessions, pair } from './index.js'
import type { StoredState } from './internal.js'

// The person closed the QR code: the dapp gives up on the pairing (`abandon`), and the published WalletKit 1.6.0
// approving it later is refused, on our relay on a real port.
const relay = useRelay()
const { create } = relay
const topicOf = (uri: string | undefined) => parsePairingUri(uri as string, { now: 0 }).topic
const stored = async (storage: SessionStorage) =>
  JSON.parse((await storage.get('pairlink-v2')) as string) as StoredState

test('default: WalletKit approving an abandoned proposal is told 5000 User rejected.; the dapp keeps no session, also after a reload', async () => {
  const storage = createMemoryStorage()
  const dapp = create(dappMetadata, storage)
  let connected = 0
  dapp.on('session_connect', () => void connected++)
  const { uri, approval } = await connect(dapp, {
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  await abandon(dapp, { pairingTopic: topicOf(uri) })
  await expect(approval()).rejects.toMatchObject({ code: 'ERR_PROPOSAL_ABANDONED' })
  // A reload before the wallet answers: the restored dapp refuses it too.
  await relay.closeClients()
  const reloaded = create(dappMetadata, storage)
  reloaded.on('session_connect', () => void connected++)
  await reloaded.ready

  const wallet = await createWalletKit(relay.relayUrl)
  const approved = new Promise<{ topic: string }>((resolve, reject) =>
    wallet.on('session_proposal', ({ id }) => {
      wallet.approveSession({ id, namespaces: grant() }).then(resolve, reject)
    }),
  )
  await wallet.pair({ uri: uri as string })
  // WalletKit (sign-client 2.25) resolves at once; the dapp's error answer to the settlement deletes its session.
  const { topic } = await approved
  await waitFor(() => Object.keys(wallet.getActiveSessions()).length === 0, {
    message: 'WalletKit dropped the refused session',
  })
  expect(getSessions(reloaded)).toEqual([])
  expect(connected).toBe(0)
  await waitFor(async () => Object.keys((await stored(storage)).proposed).length === 0, {
    message: 'proposal forgotten',
  })
  expect((await stored(storage)).sessions).toEqual({})
  expect(topic).toMatch(/^[0-9a-f]{64}$/)
})

test('behavior: our wallet approving an abandoned proposal: acknowledged() rejects with 5000 User rejected. and the session is gone', async () => {
  const dapp = create(dappMetadata)
  const wallet = create(walletMetadata)
  const { uri } = await connect(dapp, {
    optionalNamespaces: { eip155: { chains: ['eip155:1'], methods, events } },
  })
  await abandon(dapp, { pairingTopic: topicOf(uri) })
  const proposal = next(wallet, 'session_proposal')
  await pair(wallet, { uri: uri as string })
  const { acknowledged } = await approve(wallet, { id: (await proposal).id, namespaces: grant() })
  await expect(acknowledged()).rejects.toMatchObject({ code: 5000, message: 'User rejected.' })
  expect(getSessions(wallet)).toEqual([])
  expect(getSessions(dapp)).toEqual([])
})

test('behavior: WalletKit answering an abandoned one-click auth request has the session it made deleted (5000); the dapp keeps none', async () => {
  const storage = createMemoryStorage()
  const dapp = create(dappMetadata, storage)
  let connected = 0
  dapp.on('session_connect', () => void connected++)
  const ask = {
    chains: ['eip155:1'],
    domain: 'pairlink.example',
    uri: 'https://pairlink.example',
    nonce: 'n0nce',
  }
  const { uri, response } = await authenticate(dapp, ask)
  await abandon(dapp, { pairingTopic: topicOf(uri) })
  await expect(response()).rejects.toMatchObject({ code: 'ERR_PROPOSAL_ABANDONED' })

  const wallet = await createWalletKit(relay.relayUrl)
  const made = new Promise<{ session?: unknown }>((resolve, reject) =>
    wallet.on('session_authenticate', (event) => {
      approveAsSdkWallet(wallet, event, { chains: ask.chains, methods: ['personal_sign'] }).then(
        resolve,
        reject,
      )
    }),
  )
  const deleted = new Promise<{ topic: string }>((resolve) => wallet.on('session_delete', resolve))
  await wallet.pair({ uri })
  const { session } = await made
  expect((await deleted).topic).toBe((session as { topic: string }).topic)
  expect(wallet.getActiveSessions()).toEqual({})
  expect(getSessions(dapp)).toEqual([])
  expect(connected).toBe(0)
  await waitFor(async () => Object.keys((await stored(storage)).outbox).length === 0, {
    message: 'delete sent',
  })
  expect((await stored(storage)).sessions).toEqual({})
  expect((await stored(storage)).authenticating).toEqual({})
})
