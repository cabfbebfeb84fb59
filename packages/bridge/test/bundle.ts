import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build, type Plugin } from 'esbuild'

const packagesDir = fileURLToPath(new URL('../../', import.meta.url))

// Our own packages from source (`@pairlink/x/y` → packages/x/src/y.ts), so the answer never depends on a stale dist/.
const workspaceSources: Plugin = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@pairlink\// }, ({ path }) => {
      const [, name, sub] = /^@pairlink\/([^/]+)\/?(.*)$/.exec(path) ?? []
      return { path: `${packagesDir}${name}/src/${sub || 'index'}.ts` }
    })
  },
}

/**
 * The npm packages an entry of the bridge loads, transitively, found by bundling it for Node as an app's bundler
 * would and reading esbuild's metafile (every file the bundle took in).
 */
export async function packagesLoadedBy(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../src/${entry}.ts`, import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [workspaceSources],
  })
  const names = new Set<string>()
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (match?.[1]) names.add(match[1])
  }
  return [...names].sort()
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
  const result = await build({
    stdin: { contents: code, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    // Bundled CommonJS dependencies (ws) require Node's built-ins.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    plugins: [workspaceSources],
  })
  const dir = await mkdtemp(join(tmpdir(), 'pairlink-bridge-script-'))
  try {
    const file = join(dir, 'script.mjs')
    await writeFile(file, result.outputFiles[0]?.text ?? '')
    return await promisify(execFile)(process.execPath, [...nodeArgs, file], { timeout: 15_000 })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
