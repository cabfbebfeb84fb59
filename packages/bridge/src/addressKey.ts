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
