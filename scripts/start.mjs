#!/usr/bin/env node
// Starts the product: the one-port server when it exists, otherwise the parts that exist, and says which.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const port = process.env.PORT ?? '8080'
const host = process.env.HOST ?? '127.0.0.1'

const parts = [
  {
    entry: 'apps/server/dist/main.js',
    args: [],
    what: 'the Pairlink server (web app, wallet, registry, bridge, API)',
  },
  {
    entry: 'packages/bridge/dist/main.js',
    args: ['--port', port, '--host', host],
    what: `the bridge only, at ws://${host}:${port} (apps/server is not built yet)`,
  },
]
const part = parts.find((p) => existsSync(join(root, p.entry)))
if (!part) {
  console.log(
    '[start] built @pairlink/protocol; no runnable part exists yet (bridge and server are to come).',
  )
  process.exit(0)
}

console.log(`[start] starting ${part.what}`)
const child = spawn(process.execPath, [join(root, part.entry), ...part.args], {
  stdio: 'inherit',
  env: process.env,
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
