// The names a server is reached at, from its bound address only: the site's identity and the relay's `aud` both
// read them, never the request's `Host`.
import type { AddressInfo } from 'node:net'
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'

/**
 * The host names a server listening on `address` is reached by: loopback adds `localhost`, a wildcard (`0.0.0.0`,
 * `::`) every address of this machine's interfaces (no IPv6 link-local), `127.0.0.1` and `localhost`.
 * @example
 * listeningNames('127.0.0.1') // ['127.0.0.1', 'localhost']
 */
export function listeningNames(address: string): string[] {
  if (address === '0.0.0.0' || address === '::') {
    const found: string[] = []
    for (const entries of Object.values(networkInterfaces())) {
      for (const entry of entries ?? []) {
        if (entry.family === 'IPv6' && (address === '0.0.0.0' || entry.address.startsWith('fe80'))) continue
        if (!entry.internal) found.push(entry.address)
      }
    }
    return [...found, '127.0.0.1', 'localhost']
  }
  if (address === '127.0.0.1' || address === '::1' || address.startsWith('127.'))
    return [address, 'localhost']
  return [address]
}

/**
 * The `host:port` values (IPv6 in brackets) a server is reached at, the first the main one, read from `listening`
 * (its `server.address()`) at each call so that port 0 works, and worked out once per bound address. Before the
 * server listens (or on a pipe): `127.0.0.1:0`.
 * @example
 * const hosts = listeningHosts(() => server.address())
 * hosts() // ['127.0.0.1:8080', 'localhost:8080']
 */
export function listeningHosts(
  listening: () => AddressInfo | string | null | undefined,
): () => readonly string[] {
  let cached: { key: string; hosts: string[] } | undefined
  return () => {
    const address = listening()
    const bound = typeof address === 'object' && address ? address : undefined
    const key = `${bound?.address}:${bound?.port}`
    if (cached?.key === key) return cached.hosts
    const port = bound?.port ?? 0
    const names = listeningNames(bound?.address ?? '127.0.0.1')
    const hosts = [...new Set(names.map((name) => `${isIP(name) === 6 ? `[${name}]` : name}:${port}`))]
    cached = { key, hosts }
    return hosts
  }
}
