import { type LookupAddress, type LookupOptions, lookup } from 'node:dns'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { BlockList, isIP } from 'node:net'
import {
  DEFAULT_MAX_WEBHOOKS_IN_FLIGHT,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  MAX_WEBHOOK_URL_LENGTH,
} from './constants.js'
import { InvalidWebhookError, WebhookRefusedError } from './errors.js'
import type { Logger } from './logger.js'
import type { BridgeCounts } from './metrics.js'

/** How the bridge calls push webhooks: the `webhooks` option of `createBridge`. */
export type WebhookParameters = {
  /** Time-out of one call, in milliseconds. @default 5000 */
  timeoutMs?: number | undefined
  /** Calls in flight at once; more are dropped and counted as failures. @default 64 */
  maxInFlight?: number | undefined
  /**
   * Hosts allowed even though they are private: host names, IP addresses or CIDR ranges (`10.0.0.0/8`).
   * @default []
   */
  allowHosts?: readonly string[] | undefined
}

/** Parameters of {@link createWebhookNotifier}. */
export type WebhookNotifierParameters = WebhookParameters & {
  counts: BridgeCounts
  logger: Logger
}

/** Return type of {@link createWebhookNotifier}. */
export type WebhookNotifier = {
  /** Throws `InvalidWebhookError` or `WebhookRefusedError` unless the bridge may call `url`. */
  check(url: string): Promise<void>
  /** Calls each webhook with `{"topic": topic}`, without waiting: the relay never waits for a push server. */
  notify(urls: readonly string[], topic: string): void
  /** Aborts the calls in flight. */
  close(): Promise<void>
}

// Addresses a webhook must not reach: the bridge's own host and networks behind it (server-side request forgery).
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
// BlockList also applies the IPv4 rules to IPv4-mapped IPv6 addresses (::ffff:127.0.0.1), so those need no rule here.
for (const [network, prefix] of [
  ['::', 127], // unspecified and loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6')

/** Whether an IP address is loopback, private, link-local, unique-local, CGNAT, multicast or reserved. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Creates the push-webhook caller: `POST {"topic"}` with a bounded time-out and concurrency, fire-and-forget.
 * Hosts are resolved and checked both when a webhook is registered and when it is called (through the socket's
 * own DNS lookup, so a name that later resolves to a private address is still refused).
 *
 * @example
 * const notifier = createWebhookNotifier({ counts, logger, allowHosts: ['push.internal'] })
 * await notifier.check('https://push.example.org/push')
 * notifier.notify(['https://push.example.org/push'], topic)
 */
export function createWebhookNotifier(parameters: WebhookNotifierParameters): WebhookNotifier {
  const { counts, logger } = parameters
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS
  const maxInFlight = parameters.maxInFlight ?? DEFAULT_MAX_WEBHOOKS_IN_FLIGHT
  const allowedNames = new Set<string>()
  const allowedRanges = new BlockList()
  for (const entry of parameters.allowHosts ?? []) {
    const [network, prefix] = entry.split('/')
    const family = isIP(network ?? '')
    if (family && prefix !== undefined)
      allowedRanges.addSubnet(network as string, Number(prefix), family === 4 ? 'ipv4' : 'ipv6')
    else if (family) allowedRanges.addAddress(entry, family === 4 ? 'ipv4' : 'ipv6')
    else allowedNames.add(entry.toLowerCase())
  }
  const controller = new AbortController()
  let inFlight = 0

  const refused = (address: string) => {
    const family = isIP(address)
    return isPrivateAddress(address) && !allowedRanges.check(address, family === 4 ? 'ipv4' : 'ipv6')
  }

  // dns.lookup with the SSRF rule applied: used both by check() and by each call's socket.
  const guardedLookup = (
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const allowed = allowedNames.has(hostname.toLowerCase())
      if (!allowed && addresses.some((entry) => refused(entry.address)))
        return callback(new WebhookRefusedError(`Webhook host ${hostname} resolves to a private address`), [])
      if (options.all) return callback(null, addresses)
      const first = addresses[0]
      if (!first) return callback(new WebhookRefusedError(`Webhook host ${hostname} has no address`), [])
      callback(null, first.address, first.family)
    })
  }

  const parse = (value: string) => {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new InvalidWebhookError('Webhook is not an absolute URL')
    }
    if (value.length > MAX_WEBHOOK_URL_LENGTH) throw new InvalidWebhookError('Webhook URL is too long')
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new InvalidWebhookError('Webhook URL must use http or https')
    if (url.username || url.password) throw new InvalidWebhookError('Webhook URL must not carry credentials')
    return url
  }

  const check = async (value: string) => {
    const hostname = hostnameOf(parse(value))
    await new Promise<void>((resolve, reject) =>
      guardedLookup(hostname, { all: true }, (error) => (error ? reject(error) : resolve())),
    ).catch((error: unknown) => {
      if (error instanceof WebhookRefusedError) throw error
      throw new WebhookRefusedError(`Webhook host ${hostname} cannot be resolved`, { cause: error })
    })
  }

  const call = (value: string, body: string) =>
    new Promise<void>((resolve, reject) => {
      const url = parse(value)
      const hostname = hostnameOf(url)
      // A literal IP never reaches the socket's DNS lookup, so the rule is applied to it here.
      if (isIP(hostname) && refused(hostname))
        return reject(new WebhookRefusedError(`Webhook host ${hostname} is a private address`))
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest
      const req = send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup,
        signal: controller.signal,
      })
      // A plain timer the call clears, never AbortSignal.timeout under AbortSignal.any: the composite signal holds
      // its sources weakly, so once V8 collects the timeout signal the call would hang for ever and hold its slot.
      const timer = setTimeout(
        () => req.destroy(new Error(`Webhook timed out after ${timeoutMs} ms`)),
        timeoutMs,
      )
      req.once('close', () => clearTimeout(timer))
      req.on('response', (res) => {
        res.resume()
        const status = res.statusCode ?? 0
        if (status >= 200 && status < 300) resolve()
        else reject(new Error(`Webhook answered ${status}`))
      })
      req.on('error', reject)
      req.end(body)
    })

  return {
    check,
    notify(urls, topic) {
      if (urls.length === 0) return
      const body = JSON.stringify({ topic })
      for (const value of urls) {
        if (inFlight >= maxInFlight || controller.signal.aborted) {
          counts.webhookFailures++
          continue
        }
        inFlight++
        counts.webhookCalls++
        call(value, body)
          .catch((error: unknown) => {
            counts.webhookFailures++
            logger.warn(
              { host: hostOf(value), error: error instanceof Error ? error.message : String(error) },
              'webhook call failed',
            )
          })
          .finally(() => {
            inFlight--
          })
      }
    },
    async close() {
      controller.abort()
    },
  }
}

function hostnameOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '')
}

function hostOf(value: string): string {
  try {
    return new URL(value).host
  } catch {
    return 'invalid'
  }
}
