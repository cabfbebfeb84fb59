import type { IncomingMessage, ServerResponse } from 'node:http'
import { LOGO_COLOURS, solidPng, WALLETCONNECT_TEST_WALLETS } from './walletConnectWallets.js'

/** One request the explorer stand-in answered. */
export type ExplorerRequest = {
  time: number
  /** `getWallets`, `getWalletImage` or the path of anything else. */
  path: string
  projectId: string | null
  status: number
}

/** The explorer stand-in's request handler and its switches. */
export type ExplorerStandIn = {
  handle(request: IncomingMessage, response: ServerResponse): void
  /** Every request answered, oldest first. */
  requests: ExplorerRequest[]
  /** While `true`, every request is answered 500 (a refresh that fails). */
  fail(failing: boolean): void
}

const MAX_ENTRIES = 100

/**
 * WalletConnect's wallet explorer as far as Pairlink uses it: `GET /getWallets?projectId&page&entries[&st&sv]` →
 * `{count, data}` (page from 1, entries up to 100), `GET /getWalletImage/{image_id}?projectId` → a PNG. A missing or
 * unknown `projectId` gets 403 JSON.
 */
export function createExplorerStandIn(projectIds: ReadonlySet<string>): ExplorerStandIn {
  const requests: ExplorerRequest[] = []
  let failing = false

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://explorer')
    const projectId = url.searchParams.get('projectId')
    const image = /^\/getWalletImage\/([^/]+)$/.exec(url.pathname)
    const path = url.pathname === '/getWallets' ? 'getWallets' : image ? 'getWalletImage' : url.pathname
    const send = (status: number, type: string, body: string | Buffer) => {
      requests.push({ time: Date.now(), path, projectId, status })
      response.writeHead(status, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
        'access-control-allow-origin': '*',
      })
      response.end(body)
    }
    const json = (status: number, value: unknown) =>
      send(status, 'application/json; charset=utf-8', JSON.stringify(value))

    if (failing) return json(500, { message: 'Internal Server Error' })
    if (request.method !== 'GET') return json(405, { message: 'Method Not Allowed' })
    if (path !== 'getWallets' && path !== 'getWalletImage') return json(404, { message: 'Not Found' })
    if (!projectId || !projectIds.has(projectId))
      return json(403, { message: projectId ? 'Invalid projectId' : 'Missing projectId' })

    if (image) {
      const colour = LOGO_COLOURS.get(decodeURIComponent(image[1] ?? ''))
      return colour ? send(200, 'image/png', solidPng(colour)) : json(404, { message: 'Image not found' })
    }
    const page = Number(url.searchParams.get('page') ?? '1')
    const entries = Number(url.searchParams.get('entries') ?? '40')
    if (
      !Number.isInteger(page) ||
      page < 1 ||
      !Number.isInteger(entries) ||
      entries < 1 ||
      entries > MAX_ENTRIES
    )
      return json(400, { message: `page must be ≥ 1 and entries 1…${MAX_ENTRIES}` })
    const data = WALLETCONNECT_TEST_WALLETS.slice((page - 1) * entries, page * entries)
    return json(200, { count: WALLETCONNECT_TEST_WALLETS.length, data })
  }

  return {
    handle,
    requests,
    fail(value) {
      failing = value
    },
  }
}
