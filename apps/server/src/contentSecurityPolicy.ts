/** Parameters of {@link contentSecurityPolicy}. */
export type ContentSecurityPolicyParameters = {
  /** The site's origin as this request sees it (`http(s)://host[:port]`): its relay is reached in ws(s) form. */
  origin: string
  /** WalletConnect's relay the apps pair through (with a project id only). @default none */
  walletConnectRelayUrl?: string | undefined
  /** `BRIDGE_URL`: an external v1 bridge the apps open (by HTTP and WebSocket). @default none */
  bridgeUrl?: string | undefined
}

/**
 * The `Content-Security-Policy` of everything the server serves: scripts, styles, fonts and frames from this site
 * only, images from it or `data:` URIs, and connections to this site, its relay and the relay and bridge the apps
 * were handed, nothing else. The apps' inline styles (the modal injects a `<style>`) are the one relaxation.
 *
 * @example
 * contentSecurityPolicy({ origin: 'https://pairlink.example', walletConnectRelayUrl: 'wss://relay.walletconnect.org' })
 */
export function contentSecurityPolicy(parameters: ContentSecurityPolicyParameters): string {
  const connect = new Set(["'self'", toWebSocket(parameters.origin)])
  if (parameters.walletConnectRelayUrl) connect.add(new URL(parameters.walletConnectRelayUrl).origin)
  if (parameters.bridgeUrl) {
    const bridge = new URL(parameters.bridgeUrl)
    // A v1 client speaks to the bridge over HTTP (`/hello`, push) and WebSocket alike, whichever form it was given.
    connect.add(toHttp(bridge.origin))
    connect.add(toWebSocket(bridge.origin))
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    // Wallet logos are this site's (the registry serves them); an injected wallet's icon is a data: URI. A peer's own
    // icon URL (its metadata) is not loaded: the apps show its initial instead, and the peer learns nothing of who
    // opened the page.
    "img-src 'self' data:",
    // 'self' covers ws(s) of this host only in CSP Level 3 browsers; the explicit origin covers the others.
    `connect-src ${[...connect].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

function toWebSocket(origin: string): string {
  return origin.replace(/^http/, 'ws')
}

function toHttp(origin: string): string {
  return origin.replace(/^ws/, 'http')
}
