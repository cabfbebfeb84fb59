#!/usr/bin/env node
// Starts the product: the one-port server (web app, wallet, registry, bridge, /rpc, /api), built by `npm start`
// just before. Forwards Ctrl-C and SIGTERM to it and exits with its status.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './lib.mjs'

const entry = join(root, 'apps/server/dist/main.js')
if (!existsSync(entry)) {
  console.error('[start] apps/server is not built: run `npm start` (or `npm run build` first)')
  process.exit(1)
}

const child = spawn(process.execPath, [entry], { stdio: 'inherit', env: process.env })
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
  process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
