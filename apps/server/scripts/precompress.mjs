#!/usr/bin/env node
// Writes a Brotli (.br) and a gzip (.gz) copy beside each compressible file of the built apps, so the server sends
// them as they are to browsers that take them (no compression per request). A copy newer than its file is kept.
// Usage: node apps/server/scripts/precompress.mjs DIR...
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const COMPRESSIBLE = /\.(html|js|mjs|css|json|svg|txt|webmanifest)$/
/** Files smaller than this gain nothing worth a second copy. */
const MIN_BYTES = 1024

/** @param {string} dir */
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walk(path)
    else if (COMPRESSIBLE.test(entry.name)) compress(path)
  }
}

/** @param {string} path */
function compress(path) {
  const info = statSync(path)
  if (info.size < MIN_BYTES) return
  const fresh = (/** @type {string} */ copy) =>
    (statSync(copy, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= info.mtimeMs
  if (fresh(`${path}.br`) && fresh(`${path}.gz`)) return
  const data = readFileSync(path)
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(data, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
  )
  writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }))
}

for (const dir of process.argv.slice(2))
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir)
