import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { bundle } from '@pairlink/test-kit/bundle'

/** The npm packages an entry of the bridge loads, transitively, when an app bundles it for Node. */
export async function packagesLoadedBy(entry: string): Promise<string[]> {
  const { packages } = await bundle({
    entry: fileURLToPath(new URL(`../src/${entry}.ts`, import.meta.url)),
    platform: 'node',
  })
  return packages
}

/**
 * Runs an ES module in a child Node process, with `@pairlink/*` imports bundled from source; resolves with what
 * the process wrote. For behaviour only a fresh process shows (what it prints, what it loads, what survives `gc()`
 * with `--expose-gc` in `nodeArgs`).
 */
export async function runScript(
  code: string,
  nodeArgs: readonly string[] = [],
): Promise<{ stdout: string; stderr: string }> {
  const { text } = await bundle({
    contents: code,
    resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    platform: 'node',
  })
  const dir = await mkdtemp(join(tmpdir(), 'pairlink-bridge-script-'))
  try {
    const file = join(dir, 'script.mjs')
    await writeFile(file, text)
    return await promisify(execFile)(process.execPath, [...nodeArgs, file], { timeout: 15_000 })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
