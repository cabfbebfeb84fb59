// v1's client expects Node's `Buffer` as a global; esbuild injects this module wherever `Buffer` is referenced.
// biome-ignore lint/style/useNodejsImportProtocol: the npm `buffer` package for the browser bundle, not node:buffer
export { Buffer } from 'buffer'
