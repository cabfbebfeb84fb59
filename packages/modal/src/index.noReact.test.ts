import { fileURLToPath } from 'node:url'
import { bundle } from '@pairlink/test-kit/bundle'
import { describe, expect, test } from 'vitest'

/** The npm packages a browser bundle of `entry` (next to this file) pulls in. */
async function packagesOf(entry: string): Promise<string[]> {
  return (await bundle({ entry: fileURLToPath(new URL(entry, import.meta.url)) })).packages
}

describe('module graph', () => {
  test('default: the main entry loads neither react nor react-dom', async () => {
    const packages = await packagesOf('./index.ts')
    // The graph was read: the QR encoder the plain modal needs is in it.
    expect(packages).toContain('uqr')
    expect(packages).not.toContain('react')
    expect(packages).not.toContain('react-dom')
  })

  test('default: @pairlink/modal/open neither', async () => {
    const packages = await packagesOf('./open.ts')
    expect(packages).toContain('uqr')
    expect(packages).not.toContain('react')
  })

  test('behavior: @pairlink/modal/react does load react (the check above can see it)', async () => {
    expect(await packagesOf('./react.ts')).toContain('react')
  })
})
