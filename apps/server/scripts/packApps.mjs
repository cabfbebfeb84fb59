#!/usr/bin/env node
// npm's prepack/postpack of @pairlink/server: copies the built web app and wallet page (apps/web/dist,
// apps/wallet/dist, with their .br/.gz copies) into the package's own web/ and wallet/, which its tarball carries,
// and removes them again after packing (`--clean`), so the repository keeps serving the apps' fresh builds. Source
// maps stay out: they are two thirds of the bytes and no operator needs them. Fails when an app is not built.
import { cpSync, existsSync, rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const server = fileURLToPath(new URL('..', import.meta.url))
const APPS = [
  { from: join(server, '../web/dist'), to: join(server, 'web') },
  { from: join(server, '../wallet/dist'), to: join(server, 'wallet') },
]

for (const { to } of APPS) rmSync(to, { recursive: true, force: true })
if (!process.argv.includes('--clean')) {
  for (const { from, to } of APPS) {
    if (!existsSync(join(from, 'index.html'))) {
      console.error(`[packApps] ${from} has no build: run \`npm run build\` at the repository root first`)
      process.exit(1)
    }
    cpSync(from, to, {
      recursive: true,
      filter: (path) => !path.endsWith('.map') && basename(path) !== '.pairlink-build',
    })
  }
}
