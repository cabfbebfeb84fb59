/**
 * The `wc:` URI of a deep link `/wallet/wc?uri=…` (reference §6.6), or `undefined`. Links built by hand sometimes
 * leave the URI unencoded, which splits its `&key=` off into a parameter of its own; that form is accepted too.
 */
export function readDeepLink(location: Pick<Location, 'pathname' | 'search'>): string | undefined {
  if (!/\/wc\/?$/.test(location.pathname)) return undefined
  const params = new URLSearchParams(location.search)
  const uri = params.get('uri')
  if (!uri) return undefined
  if (!uri.includes('key=') && params.has('key')) {
    // Unencoded: the rest of the query is the URI as written (its bridge may itself be percent-encoded).
    return location.search.slice(location.search.indexOf('uri=') + 4)
  }
  return uri
}

/** The wallet's own path without the deep link, so a reload does not pair again with a used URI. */
export function stripDeepLink(pathname: string): string {
  return pathname.replace(/\/wc\/?$/, '/')
}
