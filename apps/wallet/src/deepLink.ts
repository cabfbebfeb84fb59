/**
 * The `wc:` URI (v1 or v2) of a deep link `/wallet/wc?uri=…` (reference §6.6), or `undefined`. Links built by hand
 * sometimes leave the URI unencoded, which splits its `&key=` (v2: `&symKey=`) off into a parameter of its own; that
 * form is accepted too.
 */
export function readDeepLink(location: Pick<Location, 'pathname' | 'search'>): string | undefined {
  if (!/\/wc\/?$/.test(location.pathname)) return undefined
  const params = new URLSearchParams(location.search)
  const uri = params.get('uri')
  if (!uri) return undefined
  // v1's key is `key`, v2's `symKey` (a v2 link names no bridge, so its first `&` splits that off).
  const keyName = /@2(\?|$)/.test(uri) ? 'symKey' : 'key'
  if (!uri.includes(`${keyName}=`) && params.has(keyName)) {
    // Unencoded: the rest of the query is the URI as written (its bridge may itself be percent-encoded).
    return location.search.slice(location.search.indexOf('uri=') + 4)
  }
  return uri
}

/** The wallet's own path without the deep link, so a reload does not pair again with a used URI. */
export function stripDeepLink(pathname: string): string {
  return pathname.replace(/\/wc\/?$/, '/')
}
