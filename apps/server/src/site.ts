import type { AddressInfo } from 'node:net'
import { listeningHosts } from '@pairlink/bridge'

/** What a request may tell {@link Site.of}: its `Host`, the proxy's `X-Forwarded-Proto`, and whether TLS reached us. */
type SiteRequest = {
  host?: string | undefined
  forwardedProto?: string | undefined
  encrypted?: boolean | undefined
}

/** The site as one request sees it: always one of the configured identities. */
export type SiteView = {
  /** `scheme://host[:port]`: the only origin the CSRF check accepts and the origin a sign-in URI must be on. */
  origin: string
  /** `host[:port]`: the domain a sign-in message must name. */
  domain: string
  /** Served over https (directly or, with `trustProxy`, through the proxy): cookies get `Secure`. */
  secure: boolean
}

/** Parameters of {@link createSite}. */
export type CreateSiteParameters = {
  /** `PUBLIC_URL`: the one origin of the site. Unset: the address the server listens on. */
  publicUrl?: URL | undefined
  /** Believe `X-Forwarded-Proto` (only the scheme: never a host). @default false */
  trustProxy?: boolean | undefined
  /** The listening address (`server.address()`), read when a request comes in, so port 0 works. */
  listening?: (() => AddressInfo | string | null) | undefined
}

/** The site's identity, from configuration only; see {@link createSite}. */
export type Site = {
  /** The site as this request sees it. The request's `Host` only picks among the configured hosts, never adds one. */
  of(request: SiteRequest): SiteView
  /** The site's main origin, for the start-up message. */
  primary(): string
}

/**
 * The site's identity — the domain, URI and origin Sign-In with Ethereum and the CSRF check accept — from
 * configuration, never from the request. With `publicUrl` it is that one origin. Without it, the listening address:
 * its host (plus `localhost` on loopback), or every address of this machine when it listens on all of them
 * (`0.0.0.0`, `::`), each with the bound port. A forged `Host` header falls back to the main identity.
 * @example
 * const site = createSite({ publicUrl: new URL('https://pairlink.example') })
 * site.of({ host: 'evil.example' }).origin // 'https://pairlink.example'
 */
export function createSite(parameters: CreateSiteParameters): Site {
  const { publicUrl, trustProxy = false, listening } = parameters
  // The bridge's relay reads the same list for the `aud` its tokens may name (attachBridge): one copy serves both.
  const listeningList = listeningHosts(() => listening?.())
  /** The hosts (`host:port`, IPv6 in brackets) this site answers as; the first is the main one. */
  const hosts = (): readonly string[] => (publicUrl ? [publicUrl.host] : listeningList())

  return {
    of(request) {
      const list = hosts()
      const asked = request.host?.toLowerCase()
      const domain = asked && list.includes(asked) ? asked : (list[0] as string)
      const secure = publicUrl
        ? publicUrl.protocol === 'https:'
        : request.encrypted === true ||
          (trustProxy && request.forwardedProto?.split(',')[0]?.trim().toLowerCase() === 'https')
      return { origin: `${secure ? 'https' : 'http'}://${domain}`, domain, secure }
    },
    primary() {
      return publicUrl ? publicUrl.origin : `http://${hosts()[0]}`
    },
  }
}
