import type { IncomingMessage } from 'node:http'
import { createServer } from 'node:net'
import { createBridgeServer } from '@pairlink/bridge'
import { decodeJwt } from '@pairlink/protocol/v2'
import { describe, expect, onTestFinished, test } from 'vitest'
import { WebSocketServer } from 'ws'
import { describeRelayProbe, probeRelay, type RelayProbeResult } from './probeRelay.js'

// Real relays on free loopback ports: Pairlink's own restricted to one project, and a tiny ws server that refuses as
// WalletConnect's relay does (the upgrade taken, then close 3000 or a JSON-RPC error 3000).
const PROJECT_ID = '0123456789abcdef0123456789abcdef'
const ORIGIN = 'https://pairlink.example'

/** Pairlink's relay serving only `PROJECT_ID`; its ws:// URL. */
async function pairlinkRelay(): Promise<string> {
  const server = createBridgeServer({ relay: { projectIds: [PROJECT_ID] } })
  onTestFinished(() => server.close())
  return (await server.listen(0, '127.0.0.1')).url.replace(/^http/, 'ws')
}

/** A relay stand-in: `onSocket` gets each socket and its upgrade; its URL and the upgrades seen. */
async function standIn(onSocket: (ws: import('ws').WebSocket, request: IncomingMessage) => void) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((resolve) => wss.once('listening', resolve))
  onTestFinished(() => new Promise<void>((resolve) => wss.close(() => resolve())))
  const upgrades: IncomingMessage[] = []
  wss.on('connection', (ws, request) => {
    upgrades.push(request)
    onSocket(ws, request)
  })
  return { url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`, upgrades }
}

const probe = (relayUrl: string, projectId = PROJECT_ID, timeout?: number) =>
  probeRelay({ relayUrl, projectId, origin: ORIGIN, timeout })
const describeFor = (result: RelayProbeResult, relayUrl: string) =>
  describeRelayProbe(result, { relayUrl, projectId: PROJECT_ID, origin: ORIGIN })

describe('probeRelay', () => {
  test("default: Pairlink's relay accepts a project it serves", async () => {
    const relayUrl = await pairlinkRelay()
    const result = await probe(relayUrl)
    expect(result).toEqual({ status: 'accepted' })
    expect(describeFor(result, relayUrl)).toEqual({
      level: 'info',
      message: `The relay ${relayUrl} accepts project 0123…cdef from ${ORIGIN}`,
    })
  })

  test('error: a project the relay does not serve (HTTP 403) → one line: set WALLETCONNECT_PROJECT_ID', async () => {
    const relayUrl = await pairlinkRelay()
    const result = await probe(relayUrl, 'fedcba9876543210fedcba9876543210')
    expect(result).toEqual({
      status: 'refused',
      kind: 'project-unknown',
      reason: 'Unknown projectId',
      how: 'HTTP 403',
    })
    expect(describeFor(result, relayUrl)).toEqual({
      level: 'error',
      message: `The relay ${relayUrl} refused project 0123…cdef from ${ORIGIN} (HTTP 403 "Unknown projectId"): set WALLETCONNECT_PROJECT_ID to a project id from https://dashboard.reown.com`,
    })
  })

  test("behavior: the upgrade is the apps' own — a token for the relay URL, the project id, the site's Origin", async () => {
    const relay = await standIn((ws) => ws.close(3000, 'Project not found'))
    const relayUrl = `${relay.url}/?extra=kept`
    await probe(relayUrl)
    const [upgrade] = relay.upgrades
    expect(upgrade?.headers.origin).toBe(ORIGIN)
    const search = new URL(upgrade?.url ?? '', 'ws://x').searchParams
    expect(search.get('projectId')).toBe(PROJECT_ID)
    expect(search.get('extra')).toBe('kept')
    expect(search.get('useOnCloseEvent')).toBe('true')
    expect(decodeJwt(search.get('auth') ?? '').payload.aud).toBe(relayUrl)
  })

  test.each([
    [
      'Project not found',
      'project-unknown',
      'set WALLETCONNECT_PROJECT_ID to a project id from https://dashboard.reown.com',
    ],
    [
      'Project ID is missing',
      'project-missing',
      'set WALLETCONNECT_PROJECT_ID to a project id from https://dashboard.reown.com',
    ],
    [
      'Unauthorized: origin not allowed',
      'origin',
      `add ${ORIGIN} to the project's allowed domains at https://dashboard.reown.com`,
    ],
  ])('error: close 3000 "%s" → one line naming the fix', async (reason, kind, fix) => {
    const relay = await standIn((ws) => ws.close(3000, reason))
    const result = await probe(relay.url)
    expect(result).toEqual({ status: 'refused', kind, reason, how: 'close 3000' })
    const line = describeFor(result, relay.url)
    expect(line.level).toBe('error')
    expect(line.message).toBe(
      `The relay ${relay.url} refused project 0123…cdef from ${ORIGIN} (close 3000 "${reason}"): ${fix}`,
    )
    expect(relay.upgrades).toHaveLength(1)
  })

  test('error: a JSON-RPC error 3000 to the subscription is a refusal too; a 4xxx close is one of kind "other"', async () => {
    const byError = await standIn((ws) =>
      ws.on('message', (data) => {
        const { id } = JSON.parse(data.toString()) as { id: number }
        const error = { code: 3000, message: 'Unauthorized: origin not allowed', data: 'OriginNotAllowed' }
        ws.send(JSON.stringify({ id, jsonrpc: '2.0', error }))
      }),
    )
    expect(await probe(byError.url)).toMatchObject({
      status: 'refused',
      kind: 'origin',
      how: 'JSON-RPC 3000',
    })

    const byClose = await standIn((ws) => ws.close(4010, 'Rate\nlimited'))
    const result = await probe(byClose.url)
    expect(result).toEqual({ status: 'refused', kind: 'other', reason: 'Rate limited', how: 'close 4010' })
    expect(describeFor(result, byClose.url).message).toContain(
      ': check WALLETCONNECT_PROJECT_ID (a project id from https://dashboard.reown.com) and WALLETCONNECT_RELAY_URL',
    )
  })

  test('error: nothing listening → unreachable, one warn line', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as { port: number }
    await new Promise<void>((resolve) => blocker.close(() => resolve()))
    const relayUrl = `ws://127.0.0.1:${port}`
    const result = await probe(relayUrl)
    expect(result).toEqual({ status: 'unreachable', reason: 'ECONNREFUSED' })
    expect(describeFor(result, relayUrl)).toEqual({
      level: 'warn',
      message: `The relay ${relayUrl} is unreachable (ECONNREFUSED): the apps cannot pair through it; check WALLETCONNECT_RELAY_URL and this machine's network`,
    })
  })

  test('behavior: a relay that never answers ends the probe at its time-out', async () => {
    // Takes the TCP connection, says nothing: the upgrade never completes.
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => {
      silent.close()
    })
    const { port } = silent.address() as { port: number }
    expect(await probe(`ws://127.0.0.1:${port}`, PROJECT_ID, 200)).toMatchObject({ status: 'unreachable' })
  })
})
