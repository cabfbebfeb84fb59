import { isIPv6 } from 'node:net'

/**
 * The key per-address limits count by: an IPv4 address as it is (also when IPv4-mapped, `::ffff:1.2.3.4`), an IPv6
 * address by its /64 network, since one subscriber is routinely given a whole /64 and could otherwise change
 * address for every socket.
 *
 * @example
 * addressKey('2001:db8:1:2:3:4:5:6') // '2001:db8:1:2::/64'
 */
export function addressKey(address: string): string {
  if (!isIPv6(address)) return address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped?.[1]) return mapped[1]
  const [head = '', tail = ''] = address.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : []
  // An embedded IPv4 tail counts as two groups; only the first four groups matter here, so it is never read.
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

// An address key of IPv4 (`a.b.c.d`) and of IPv6 (`w:x:y:z::/64`, as addressKey writes it). The Redis store's Lua
// derives the same network from an owner: keep both in step (`v2/redisStoreScripts.ts`).
const IPV4_KEY = /^(\d+\.\d+\.\d+)\.\d+$/
const IPV6_KEY = /^([0-9a-f]+:[0-9a-f]+:[0-9a-f]+):[0-9a-f]+::\/64$/

/**
 * The key per-network limits count by: an IPv4 address by its /24, an IPv6 address by its /48 (what one site is
 * routinely given), IPv4-mapped IPv6 as IPv4. Takes an address or its {@link addressKey}; anything else is its own key.
 *
 * @example
 * networkKey('203.0.113.7') // '203.0.113.0/24'
 * networkKey('2001:db8:1:2::/64') // '2001:db8:1::/48'
 */
export function networkKey(address: string): string {
  // An address key (what the relay passes, once per publish) is matched as it is; anything else is keyed first.
  const ipv4 = IPV4_KEY.exec(address)
  if (ipv4) return `${ipv4[1]}.0/24`
  const ipv6 = IPV6_KEY.exec(address)
  if (ipv6) return `${ipv6[1]}::/48`
  const key = addressKey(address)
  return key === address ? key : networkKey(key)
}
