#!/usr/bin/env node
// The package's bin: a committed, executable file, so `npx pairlink-bridge` works however dist/ was built.
try {
  await import('../dist/main.js')
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/main.js')) {
    process.stderr.write(
      'pairlink-bridge is not built yet: run `npx tsc -b packages/bridge` (or `npm run build`).\n',
    )
    process.exit(1)
  }
  throw error
}
