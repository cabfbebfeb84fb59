import { expect, test } from 'vitest'
import { addressKey, networkKey } from './addressKey.js'

test('default', () => {
  expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
})

test('behavior: IPv4-mapped IPv6 counts as its IPv4 address', () => {
  expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
})

test('behavior: IPv6 addresses count by their /64, however written', () => {
  const key = '2001:db8:1:2::/64'
  for (const address of [
    '2001:db8:1:2:3:4:5:6',
    '2001:0db8:0001:0002::9',
    '2001:DB8:1:2::',
    '2001:db8:1:2:ffff::1',
  ])
    expect(addressKey(address), address).toBe(key)
  expect(addressKey('2001:db8:1:3::1')).not.toBe(key)
  expect(addressKey('::1')).toBe('0:0:0:0::/64')
  expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64')
})

test('behavior: anything else is its own key', () => {
  expect(addressKey('unknown')).toBe('unknown')
})

test('behavior: networkKey counts IPv4 by its /24 and IPv6 by its /48, from an address or its address key', () => {
  for (const address of ['203.0.113.7', '203.0.113.255', '::ffff:203.0.113.9'])
    expect(networkKey(address), address).toBe('203.0.113.0/24')
  expect(networkKey(addressKey('203.0.113.7'))).toBe('203.0.113.0/24')
  expect(networkKey('203.0.114.7')).toBe('203.0.114.0/24')
  for (const address of ['2001:db8:1:2:3:4:5:6', '2001:0DB8:0001:ffff::1', '2001:db8:1::'])
    expect(networkKey(address), address).toBe('2001:db8:1::/48')
  expect(networkKey(addressKey('2001:db8:1:2::9'))).toBe('2001:db8:1::/48')
  expect(networkKey('2001:db8:2::1')).toBe('2001:db8:2::/48')
  expect(networkKey('unknown')).toBe('unknown')
})
