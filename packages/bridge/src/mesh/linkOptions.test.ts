import { describe, expect, test } from 'vitest'
import { InvalidBridgeOptionsError } from '../errors.js'
import { parseLinkAddress, parseLinkOptions } from './linkOptions.js'

const SECRET = 'correct-horse-battery-staple'

describe('parseLinkOptions', () => {
  test('default: nothing set is links on, with the backend defaults', () => {
    expect(parseLinkOptions({})).toEqual({})
  })

  test('args: listen, advertise and secret', () => {
    expect(parseLinkOptions({ listen: '0.0.0.0:7100', advertise: '10.0.0.5:7100', secret: SECRET })).toEqual({
      host: '0.0.0.0',
      port: 7100,
      advertise: '10.0.0.5:7100',
      secret: SECRET,
    })
    expect(parseLinkOptions({ listen: '[::1]:0' })).toEqual({ host: '::1', port: 0 })
    expect(parseLinkOptions({ listen: 'bridge_1:7100', advertise: '[fd00::5]:7100' })).toEqual({
      host: 'bridge_1',
      port: 7100,
      advertise: '[fd00::5]:7100',
    })
  })

  test('args: off turns links off; advertise and secret are then not read', () => {
    expect(parseLinkOptions({ listen: 'off', advertise: 'nonsense', secret: 'x' })).toBe(false)
  })

  test.each([
    [{ listen: '7100' }, 'BRIDGE_LINK_LISTEN must be host:port (port 0: a free one) or off, got 7100'],
    [{ listen: 'host:65536' }, 'BRIDGE_LINK_LISTEN must be host:port'],
    [{ listen: 'http://host:7100' }, 'BRIDGE_LINK_LISTEN must be host:port'],
    [{ listen: '[localhost]:7100' }, 'BRIDGE_LINK_LISTEN must be host:port'],
    [{ listen: '' }, 'BRIDGE_LINK_LISTEN must be host:port'],
    [
      { advertise: '10.0.0.5:0' },
      'BRIDGE_LINK_ADVERTISE must be host:port, the address the other nodes dial, got',
    ],
    [{ advertise: '10.0.0.5' }, 'BRIDGE_LINK_ADVERTISE must be host:port'],
    [{ secret: 'short' }, 'BRIDGE_LINK_SECRET must be at least 16 characters (e.g. openssl rand -hex 32)'],
    [{ secret: '' }, 'BRIDGE_LINK_SECRET must be at least 16 characters'],
  ])('error: %o', (settings, message) => {
    expect(() => parseLinkOptions(settings)).toThrow(InvalidBridgeOptionsError)
    expect(() => parseLinkOptions(settings)).toThrow(message)
  })

  test('error: names the setting as the caller calls it, and never shows the secret', () => {
    const names = { listen: '--link-listen', advertise: '--link-advertise', secret: '--link-secret' }
    expect(() => parseLinkOptions({ listen: 'x' }, names)).toThrow(/^--link-listen must be/)
    let error: unknown
    try {
      parseLinkOptions({ secret: 'hunter2-fifteen' }, names)
    } catch (caught) {
      error = caught
    }
    expect((error as Error).message).toBe(
      '--link-secret must be at least 16 characters (e.g. openssl rand -hex 32)',
    )
    expect(JSON.stringify(error)).not.toContain('hunter2')
  })
})

describe('parseLinkAddress', () => {
  test.each([
    ['127.0.0.1:7100', { host: '127.0.0.1', port: 7100 }],
    ['[::]:7100', { host: '::', port: 7100 }],
    ['::1:7100', { host: '::1', port: 7100 }],
    ['node-b.internal:65535', { host: 'node-b.internal', port: 65535 }],
  ])('default: %s', (address, parsed) => {
    expect(parseLinkAddress(address)).toEqual(parsed)
  })

  test('args: minPort 0 lets a listener take a free port', () => {
    expect(parseLinkAddress('127.0.0.1:0')).toBeUndefined()
    expect(parseLinkAddress('127.0.0.1:0', 0)).toEqual({ host: '127.0.0.1', port: 0 })
  })

  test.each(['', ':7100', 'host', 'host:', 'host:123456', 'a b:7100', '[host]:7100', 'tcp://host:7100'])(
    'error: %j is no address',
    (address) => {
      expect(parseLinkAddress(address)).toBeUndefined()
    },
  )
})
