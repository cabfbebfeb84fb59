import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, test } from 'vitest'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The package files of `node_modules` a bundle of `entry` pulls in, by package name. */
async function packagesOf(entry: string): Promise<Set<string>> {
  const result = await build({
    entryPoints: [here(entry)],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    // Our own packages come from their sources, as an app built from this repository gets them.
    alias: { '@pairlink/protocol': here('../../protocol/src/index.ts') },
    logLevel: 'silent',
  })
  const names = Object.keys(result.metafile.inputs)
    .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1])
    .filter((name): name is string => name !== undefined)
  return new Set(names)
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
