#!/usr/bin/env node
// pairlink-wallet: the reference wallet without a screen, for dapps' automated tests. See `--help`.
import WebSocket from 'ws'
import { runCli } from './cli/runCli.js'

const controller = new AbortController()
for (const name of ['SIGINT', 'SIGTERM'] as const) process.once(name, () => controller.abort())

const code = await runCli({
  args: process.argv.slice(2),
  env: process.env,
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (text) => process.stderr.write(text),
  // Node 20 has no global WebSocket.
  WebSocket,
  signal: controller.signal,
})
// Exit once stdout is flushed: a CI pipe must see every line.
process.stdout.write('', () => process.exit(code))
