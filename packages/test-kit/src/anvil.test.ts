import { describe, expect, test } from 'vitest'
import { AnvilError, resolveAnvilBinary, startAnvil } from './anvil.js'

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
    expect((error as AnvilError).details).toContain('npm ci')
  })
})
