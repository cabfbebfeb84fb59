import { createHash } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'

/** A wallet as WalletConnect's explorer lists it (`GET /getWallets` → `data[]`). */
export type WcWallet = {
  id: string
  name: string
  rdns: string | null
  homepage: string
  image_id: string
  image_url?: string | undefined
  order: number
  mobile_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  app_store: string | null
  play_store: string | null
  chrome_store: string | null
  injected: { namespace: string; injected_id: string }[] | null
  chains: string[]
  supports_wc: boolean
  badge_type: 'certified' | 'none'
}

// name, rdns, homepage, mobile link, injected flag, colour of its test logo. Public facts about real wallets; the ids
// and image ids are made up here (hashes of the name), never the explorer's.
const TABLE: [string, string, string, string, string | null, string][] = [
  ['MetaMask', 'io.metamask', 'https://metamask.io', 'metamask://', 'isMetaMask', 'f6851b'],
  ['Trust Wallet', 'com.trustwallet.app', 'https://trustwallet.com', 'trust://', 'isTrust', '0500ff'],
  ['Rainbow', 'me.rainbow', 'https://rainbow.me', 'rainbow://', 'isRainbow', '001e59'],
  ['Ledger Live', 'com.ledger', 'https://www.ledger.com/ledger-live', 'ledgerlive://', null, '000000'],
  [
    'Coinbase Wallet',
    'com.coinbase.wallet',
    'https://www.coinbase.com/wallet',
    'cbwallet://',
    null,
    '0052ff',
  ],
  ['OKX Wallet', 'com.okex.wallet', 'https://www.okx.com/web3', 'okex://main', 'isOkxWallet', '111111'],
  ['Zerion', 'io.zerion.wallet', 'https://zerion.io', 'zerion://', 'isZerion', '2962ef'],
  ['Uniswap Wallet', 'org.uniswap.app', 'https://wallet.uniswap.org', 'uniswap://', null, 'ff007a'],
]

const hash = (text: string) => createHash('sha256').update(text).digest('hex')

/** The explorer stand-in's wallets, in explorer order. */
export const WALLETCONNECT_TEST_WALLETS: readonly WcWallet[] = TABLE.map(
  ([name, rdns, homepage, mobile, injected], index) => {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-')
    const imageHash = hash(`image:${name}`)
    return {
      id: hash(`wallet:${name}`),
      name,
      rdns,
      homepage,
      // A uuid-shaped id, as the explorer's image ids are.
      image_id: `${imageHash.slice(0, 8)}-${imageHash.slice(8, 12)}-${imageHash.slice(12, 16)}-${imageHash.slice(16, 20)}-${imageHash.slice(20, 32)}`,
      order: (index + 1) * 10,
      mobile_link: mobile,
      desktop_link: name === 'Ledger Live' ? 'ledgerlive://' : null,
      webapp_link: null,
      app_store: `https://apps.apple.com/app/${slug}/id${1_000_000_000 + index}`,
      play_store: `https://play.google.com/store/apps/details?id=${rdns}`,
      chrome_store: injected ? `https://chromewebstore.google.com/detail/${slug}` : null,
      injected: injected ? [{ namespace: 'eip155', injected_id: injected }] : null,
      chains: ['eip155:1', 'eip155:10', 'eip155:137', 'eip155:8453', 'eip155:42161'],
      supports_wc: true,
      badge_type: index < 4 ? 'certified' : 'none',
    }
  },
)

/** A 16×16 PNG of one colour (`rrggbb`): the stand-in's logo for a wallet. */
export function solidPng(hex: string): Buffer {
  const size = 16
  const [r, g, b] = [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16))
  const row = Buffer.from([0, ...Array.from({ length: size }, () => [r ?? 0, g ?? 0, b ?? 0]).flat()])
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const framed = Buffer.alloc(body.length + 8)
    framed.writeUInt32BE(data.length, 0)
    body.copy(framed, 4)
    framed.writeUInt32BE(crc32(body), body.length + 4)
    return framed
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The colour of each test wallet's logo, by image id. */
export const LOGO_COLOURS: ReadonlyMap<string, string> = new Map(
  WALLETCONNECT_TEST_WALLETS.map((wallet, index) => [wallet.image_id, TABLE[index]?.[5] ?? '888888']),
)
