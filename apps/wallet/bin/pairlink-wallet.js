#!/usr/bin/env node
// The workspace's bin: a committed, executable file, so `npm ci` links `npx pairlink-wallet` on a fresh clone
// (npm links no bin whose target does not exist yet, and npx then asks the registry for the name).
try {
  await import('../dist-cli/cli.js')
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist-cli/cli.js')) {
    process.stderr.write('pairlink-wallet is not built yet: run `npm run build` first.\n')
    process.exit(1)
  }
  throw error
}
