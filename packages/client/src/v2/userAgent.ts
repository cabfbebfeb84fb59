import { VERSION } from '../version.js'

/** What {@link getRelayUserAgent} reads of its environment: a browser's page, or Node's process. */
export type UserAgentEnvironment = {
  /** The page's `location.host` in a browser; absent in Node. */
  host?: string | undefined
  navigator?:
    | {
        userAgent?: string | undefined
        userAgentData?: { platform?: string; brands?: { brand: string; version: string }[] } | undefined
      }
    | undefined
  /** Node's `process.platform` and `process.versions.node`. */
  process?: { platform?: string; versions?: { node?: string } } | undefined
}

// Brands a Chromium browser lists beside its own name; GREASE entries ("Not A;Brand") are told apart by their words.
const GENERIC_BRAND = /^(chromium|not.?a.?brand)$/i

/**
 * The relay's `ua` query parameter in the SDK's schema `{protocol}/{sdk}/{os}[/{id}]` (walletconnect-network.md):
 * `wc-2/js-pairlink-{version}/{os}-{browser}-{browserVersion}/browser:{host}` in a browser (from
 * `navigator.userAgentData` when present, else a light reading of `navigator.userAgent`), and
 * `wc-2/js-pairlink-{version}/{platform}-{nodeVersion}/node` in Node. No part is ever empty: the hosted relay
 * refuses an empty value, and an unknown part reads `unknown`.
 *
 * @example
 * getRelayUserAgent({ process }) // 'wc-2/js-pairlink-0.1.0/linux-20.20.2/node'
 */
export function getRelayUserAgent(environment: UserAgentEnvironment = currentEnvironment()): string {
  const sdk = `js-pairlink-${VERSION}`
  if (environment.host === undefined) {
    const { platform, versions } = environment.process ?? {}
    return `wc-2/${sdk}/${part(platform)}-${part(versions?.node)}/node`
  }
  const { os, browser, version } = readBrowser(environment.navigator)
  return `wc-2/${sdk}/${part(os)}-${part(browser)}-${part(version)}/browser:${environment.host || 'unknown'}`
}

function currentEnvironment(): UserAgentEnvironment {
  const page = globalThis as { document?: unknown; location?: { host?: string }; navigator?: unknown }
  if (page.document && page.location)
    return {
      host: page.location.host,
      navigator: page.navigator as UserAgentEnvironment['navigator'],
    }
  return { process: (globalThis as { process?: UserAgentEnvironment['process'] }).process }
}

/** A part of the `ua`: lower case, no separator of the schema (`/`, `-`) and no space; `unknown` when empty. */
function part(value: string | undefined): string {
  const clean = (value ?? '')
    .toLowerCase()
    .replace(/[\s/-]+/g, '')
    .replace(/[^\w.:]/g, '')
  return clean || 'unknown'
}

function readBrowser(navigator: UserAgentEnvironment['navigator']) {
  const data = navigator?.userAgentData
  const brand =
    data?.brands?.find(({ brand }) => !GENERIC_BRAND.test(brand.trim())) ??
    data?.brands?.find(({ brand }) => /chromium/i.test(brand))
  if (data?.platform && brand)
    return {
      os: data.platform,
      // "Google Chrome" → chrome, "Microsoft Edge" → edge: the vendor is not the browser's name.
      browser: brand.brand.replace(/^(google|microsoft)\s+/i, ''),
      version: brand.version,
    }
  return parseUserAgent(navigator?.userAgent ?? '')
}

const OSES: [RegExp, string][] = [
  [/Android/, 'android'],
  [/iPhone|iPad|iPod/, 'ios'],
  [/CrOS/, 'chromeos'],
  [/Mac OS X|Macintosh/, 'macos'],
  [/Windows/, 'windows'],
  [/Linux/, 'linux'],
]
// Order matters: Edge and Opera say Chrome too, Chrome says Safari, iOS browsers name themselves apart.
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/([\d.]+)/, 'edge'],
  [/OPR\/([\d.]+)/, 'opera'],
  [/SamsungBrowser\/([\d.]+)/, 'samsung'],
  [/(?:Firefox|FxiOS)\/([\d.]+)/, 'firefox'],
  [/(?:Chrome|CriOS)\/([\d.]+)/, 'chrome'],
  [/Version\/([\d.]+).*Safari\//, 'safari'],
]

function parseUserAgent(userAgent: string) {
  const os = OSES.find(([pattern]) => pattern.test(userAgent))?.[1]
  for (const [pattern, browser] of BROWSERS) {
    const match = pattern.exec(userAgent)
    if (match) return { os, browser, version: match[1] }
  }
  return { os, browser: undefined, version: undefined }
}
