import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root folder. */
export const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * @typedef {object} Workspace
 * @property {string} dir The workspace's folder, relative to the root (`packages/client`).
 * @property {Record<string, any>} pkg Its parsed package.json.
 */

/**
 * Every npm workspace the root package.json names, in its order (`dir/*` patterns expanded), so a gate that walks
 * them covers a package added tomorrow without being told.
 * @returns {Workspace[]}
 */
export function workspaces() {
  /** @type {string[]} */
  const patterns = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces ?? []
  const dirs = patterns.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)))
          .sort()
          .map((name) => `${pattern.slice(0, -2)}/${name}`)
      : [pattern],
  )
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
}

/**
 * The workspaces npm would publish (not `private`): what every package gate (publint, attw, tarballs) checks.
 * @returns {Workspace[]}
 */
export function publishedWorkspaces() {
  return workspaces().filter(({ pkg }) => !pkg.private)
}
