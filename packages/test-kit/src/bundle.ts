import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

const packagesDir = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Our own packages from source (`@pairlink/x/y` → packages/x/src/y.ts, .tsx, or y/index.ts for a folder entry such
 * as `@pairlink/protocol/v2`), so what a bundle holds never depends on a stale dist/.
 */
const workspaceSources: Plugin = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@pairlink\// }, ({ path }) => {
      const [, name, sub] = /^@pairlink\/([^/]+)\/?(.*)$/.exec(path) ?? []
      const stem = `${packagesDir}${name}/src/${sub || 'index'}`
      const candidates = [`${stem}.tsx`, `${stem}.ts`, `${stem}/index.tsx`, `${stem}/index.ts`]
      return { path: candidates.find((file) => existsSync(file)) ?? `${stem}.ts` }
    })
  },
}

/** Parameters of {@link bundle}: an entry file or a module's source text. */
export type BundleParameters = (
  | { /** A file to bundle. */ entry: string; contents?: undefined }
  | {
      /** Module source (TypeScript) to bundle, resolved from `resolveDir`. */ contents: string
      entry?: undefined
    }
) & {
  /** @default process.cwd() */
  resolveDir?: string | undefined
  /** @default 'browser' */
  platform?: 'browser' | 'node' | undefined
  /** Imports left out of the bundle. */
  external?: string[] | undefined
}

/** What {@link bundle} returns. */
export type BundleReturnType = {
  /** The bundle's code, unminified. */
  text: string
  /** The npm packages the bundle took in (from esbuild's metafile), sorted. */
  packages: string[]
}

/**
 * Bundles an entry as an app's bundler would (tree-shaken ESM; `@pairlink/*` from source) and tells what is in it:
 * the code, and which npm packages it loads. A test proves with it that an entry does not pull in what it must not.
 *
 * @example
 * const { packages } = await bundle({ entry: 'packages/modal/src/index.ts' })
 * expect(packages).not.toContain('react')
 */
export async function bundle(parameters: BundleParameters): Promise<BundleReturnType> {
  const { platform = 'browser', external = [], resolveDir = process.cwd() } = parameters
  const result = await build({
    ...(parameters.entry !== undefined
      ? { entryPoints: [parameters.entry] }
      : { stdin: { contents: parameters.contents, resolveDir, loader: 'ts' } }),
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform,
    external,
    logLevel: 'silent',
    // Bundled CommonJS dependencies (ws) require Node's built-ins.
    ...(platform === 'node'
      ? {
          banner: {
            js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          },
        }
      : {}),
    plugins: [workspaceSources],
  })
  const packages = new Set<string>()
  for (const input of Object.keys(result.metafile.inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1]
    if (name) packages.add(name)
  }
  return { text: result.outputFiles[0]?.text ?? '', packages: [...packages].sort() }
}
