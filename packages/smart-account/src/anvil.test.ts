import { dirname } from 'node:path'
import { describe, expect, test } from 'vitest'
import { AnvilError, resolveAnvilBinary, startAnvil } from './anvil.js'
import { ACCOUNT_FACTORY_ADDRESS } from './constants.js'

describe('anvil', () => {
  test('default: starts on a free loopback port with the funded dev accounts, stops by its PID', async () => {
    const anvil = await startAnvil()
    const call = async (method: string, params: unknown[] = []) => {
      const response = await fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      return ((await response.json()) as { result: string }).result
    }
    expect(await call('eth_chainId')).toBe('0x7a69')
    const [first] = (await call('eth_accounts')) as unknown as string[]
    expect(BigInt(await call('eth_getBalance', [first, 'latest']))).toBe(10_000n * 10n ** 18n)
    expect(await call('eth_getCode', [ACCOUNT_FACTORY_ADDRESS, 'latest'])).not.toBe('0x')
    await anvil.stop()
    expect(() => process.kill(anvil.pid, 0)).toThrow()
  })

  test('error: a platform whose anvil package is not installed is named, with the fix', () => {
    const error = (() => {
      try {
        resolveAnvilBinary({ platform: 'linux', arch: 'ppc64' })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(AnvilError)
    expect(error).toMatchObject({
      code: 'ERR_ANVIL',
      message: 'anvil is missing: the npm package @foundry-rs/anvil-linux-ppc64 is not installed',
    })
    expect((error as AnvilError).details).toContain('npm install @foundry-rs/anvil')
    expect((error as AnvilError).details).toContain('RPC_URL')
  })

  test('behavior: an anvil on PATH serves when the platform package is missing', () => {
    const installed = resolveAnvilBinary()
    const binary = resolveAnvilBinary({ platform: 'linux', arch: 'ppc64', path: dirname(installed) })
    expect(binary).toBe(installed)
  })

  test('args: port, chain id and no factory', async () => {
    const anvil = await startAnvil({ chainId: 1337, accountFactory: false, blockTime: 0 })
    expect(anvil.url).toBe(`http://127.0.0.1:${anvil.port}`)
    const response = await fetch(anvil.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getCode',
        params: [ACCOUNT_FACTORY_ADDRESS, 'latest'],
      }),
    })
    expect(((await response.json()) as { result: string }).result).toBe('0x')
    await anvil.stop()
  })
})
