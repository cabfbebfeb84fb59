/** This package's version, sent in the relay's `ua` (kept equal to package.json's by `version.test.ts`). */
export const VERSION = '0.1.0'
