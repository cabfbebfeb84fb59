#!/usr/bin/env node
// Are the types wrong? `@arethetypeswrong/cli` on the tarball `npm pack` makes of every workspace that is not private:
// each entry of its `exports` map must resolve to JavaScript and types that agree, under Node's ESM resolution and
// bundlers'. The packages are ESM only (`--profile esm-only`: a CommonJS `require` of them is not offered). Needs the
// build (the exports point at dist/). `npm run attw`.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { publishedWorkspaces, root } from './lib.mjs'

const bin = join(root, 'node_modules/.bin/attw')
const published = publishedWorkspaces()

/** @param {import('./lib.mjs').Workspace} workspace @returns {Promise<{ name: string, ok: boolean, output: string }>} */
const check = ({ dir, pkg: { name } }) =>
  new Promise((resolve) => {
    const child = spawn(bin, ['--pack', '.', '--profile', 'esm-only', '--format', 'table-flipped'], {
      cwd: join(root, dir),
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('close', (code) => resolve({ name, ok: code === 0, output }))
  })

let failed = false
// Two at a time: each packs its package and loads TypeScript.
for (let i = 0; i < published.length; i += 2) {
  for (const { name, ok, output } of await Promise.all(published.slice(i, i + 2).map(check))) {
    console.log(`[attw] ${name}: ${ok ? 'ok' : 'problems'}`)
    if (!ok) console.log(output)
    failed ||= !ok
  }
}
process.exit(failed ? 1 : 0)
