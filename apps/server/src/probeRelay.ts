import { randomBytes } from 'node:crypto'
import {
  getRelayRefusalKind,
  isRelayRefusalCode,
  RELAY_REFUSAL_CLOSE_CODE,
  type RelayRefusalKind,
  signRelayJwt,
  WALLETCONNECT_DASHBOARD_URL,
} from '@pairlink/protocol/v2'
import WebSocket from 'ws'

/** Parameters of {@link probeRelay}. */
export type ProbeRelayParameters = {
  /** The v2 relay the apps are handed (`WALLETCONNECT_RELAY_URL`), exactly as configured: the token's `aud`. */
  relayUrl: string
  projectId: string
  /** The site's public origin, sent as `Origin`: the relay checks it against the project's allowed domains. */
  origin: string
  /** Milliseconds the whole probe may take. @default 10000 */
  timeout?: number | undefined
}

/** What {@link probeRelay} found. */
export type RelayProbeResult =
  | { status: 'accepted' }
  | {
      status: 'refused'
      kind: RelayRefusalKind
      /** The relay's words, cut to 123 characters and stripped of control characters. */
      reason: string
      /** `close 3000`, `HTTP 403`, `JSON-RPC 3000`: how it refused. */
      how: string
    }
  | { status: 'unreachable'; reason: string }

/**
 * Opens one v2 socket to a relay as the apps will (a fresh relay token, the project id, the site's `Origin`),
 * subscribes to a random topic and tells whether the relay took it, refused it (HTTP 401/403 on the upgrade, a
 * close with 3000 or 4000–4999, a JSON-RPC error 3000) or could not be reached in time. Never throws; one attempt.
 *
 * @example
 * const result = await probeRelay({ relayUrl: 'wss://relay.walletconnect.org', projectId, origin: 'https://pairlink.example' })
 */
export async function probeRelay(parameters: ProbeRelayParameters): Promise<RelayProbeResult> {
  const { relayUrl, projectId, origin, timeout = 10_000 } = parameters
  let url: string
  try {
    const auth = await signRelayJwt({ seed: randomBytes(32), aud: relayUrl })
    const [base, own] = relayUrl.split('?')
    const search = new URLSearchParams(own)
    search.set('auth', auth)
    search.set('ua', 'wc-2/js-pairlink/node')
    search.set('projectId', projectId)
    search.set('useOnCloseEvent', 'true')
    url = `${base}?${search}`
  } catch (error) {
    return { status: 'unreachable', reason: (error as Error).message }
  }

  return new Promise<RelayProbeResult>((resolve) => {
    let ws: WebSocket | undefined
    let done = false
    const timer = setTimeout(
      () => settle({ status: 'unreachable', reason: `no answer within ${timeout / 1000} s` }),
      timeout,
    )
    const settle = (result: RelayProbeResult) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(result)
      ws?.removeAllListeners()
      ws?.on('error', () => {})
      if (ws?.readyState === WebSocket.OPEN) ws.close(1000)
      else ws?.terminate()
    }
    const refused = (reason: string, how: string) =>
      settle({ status: 'refused', kind: getRelayRefusalKind(reason), reason: clean(reason), how })
    let socket: WebSocket
    try {
      socket = new WebSocket(url, { origin, handshakeTimeout: timeout })
      ws = socket
    } catch (error) {
      return settle({ status: 'unreachable', reason: (error as Error).message })
    }
    const id = Date.now() * 1000 + Math.floor(Math.random() * 1000)
    socket.on('open', () =>
      socket.send(
        JSON.stringify({
          id,
          jsonrpc: '2.0',
          method: 'irn_subscribe',
          params: { topic: randomBytes(32).toString('hex') },
        }),
      ),
    )
    socket.on('message', (data) => {
      let message: { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } }
      try {
        message = JSON.parse(data.toString())
      } catch {
        return
      }
      if (message.id !== id) return
      const { error } = message
      // WalletConnect's relay has been seen to refuse an origin as a JSON-RPC error rather than a close.
      if (error?.code === RELAY_REFUSAL_CLOSE_CODE)
        return refused(String(error.message ?? ''), `JSON-RPC ${RELAY_REFUSAL_CLOSE_CODE}`)
      // Any other answer means the socket was admitted: project and origin are fine.
      settle({ status: 'accepted' })
    })
    socket.on('close', (code, reason) => {
      if (isRelayRefusalCode(code)) return refused(reason.toString(), `close ${code}`)
      settle({
        status: 'unreachable',
        reason: `closed with ${code}${reason.length ? ` ${clean(reason.toString())}` : ''}`,
      })
    })
    socket.on('unexpected-response', (_, response) => {
      const status = response.statusCode ?? 0
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        if (body.length < 1024) body += chunk
      })
      response.on('error', () => {})
      response.on('end', () =>
        status === 401 || status === 403
          ? refused(body, `HTTP ${status}`)
          : settle({ status: 'unreachable', reason: `HTTP ${status} on the upgrade` }),
      )
    })
    socket.on('error', (error: NodeJS.ErrnoException) =>
      settle({ status: 'unreachable', reason: error.code ?? error.message }),
    )
  })
}

/** A project id shortened for logs and the banner (`0123…cdef`): enough to tell projects apart. */
export function shortProjectId(projectId: string): string {
  return projectId.length > 8 ? `${projectId.slice(0, 4)}…${projectId.slice(-4)}` : projectId
}

/**
 * The one log line for a probe's result, naming the fix when the relay refused: `error` for a refusal, `warn` for an
 * unreachable relay, `info` when it took the socket.
 */
export function describeRelayProbe(
  result: RelayProbeResult,
  parameters: Omit<ProbeRelayParameters, 'timeout'>,
): { level: 'info' | 'warn' | 'error'; message: string } {
  const { relayUrl, origin } = parameters
  const project = `project ${shortProjectId(parameters.projectId)}`
  if (result.status === 'accepted')
    return { level: 'info', message: `The relay ${relayUrl} accepts ${project} from ${origin}` }
  if (result.status === 'unreachable')
    return {
      level: 'warn',
      message: `The relay ${relayUrl} is unreachable (${result.reason}): the apps cannot pair through it; check WALLETCONNECT_RELAY_URL and this machine's network`,
    }
  const said = `${result.how}${result.reason ? ` "${result.reason}"` : ''}`
  const fix =
    result.kind === 'origin'
      ? `add ${origin} to the project's allowed domains at ${WALLETCONNECT_DASHBOARD_URL}`
      : result.kind === 'other'
        ? `check WALLETCONNECT_PROJECT_ID (a project id from ${WALLETCONNECT_DASHBOARD_URL}) and WALLETCONNECT_RELAY_URL`
        : `set WALLETCONNECT_PROJECT_ID to a project id from ${WALLETCONNECT_DASHBOARD_URL}`
  return {
    level: 'error',
    message: `The relay ${relayUrl} refused ${project} from ${origin} (${said}): ${fix}`,
  }
}

/** Words from a relay, fit for one log line: control characters become spaces. */
function clean(text: string): string {
  let out = ''
  for (const char of text) out += char < ' ' || char === '\u007f' ? ' ' : char
  return out.replace(/ +/g, ' ').trim().slice(0, 123)
}
