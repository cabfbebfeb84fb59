#!/usr/bin/env node
// Lints what npm would publish: publint in strict mode (its warnings count as errors) on the tarball `npm pack` makes
// of every workspace that is not private. Suggestions are printed and do not fail. Needs the build (the exports point
// at dist/). `npm run publint`.
import { join } from 'node:path'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'
import { publishedWorkspaces, root } from './lib.mjs'

const published = publishedWorkspaces()
const results = await Promise.all(
  published.map(async ({ dir, pkg: { name } }) => ({
    name,
    ...(await publint({ pkgDir: join(root, dir), strict: true, pack: 'npm' })),
  })),
)
let failed = false
for (const { name, messages, pkg } of results) {
  const errors = messages.filter((message) => message.type === 'error')
  console.log(`[publint] ${name}: ${errors.length === 0 ? 'ok' : `${errors.length} error(s)`}`)
  for (const message of messages)
    console.log(`  ${message.type}: ${formatMessage(message, pkg, { color: false })}`)
  failed ||= errors.length > 0
}
process.exit(failed ? 1 : 0)
