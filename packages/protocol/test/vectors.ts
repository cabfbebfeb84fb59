import vectors from './vectors-v1.json' with { type: 'json' }

/** The v1 test vectors (a copy of shared/protocol/vectors-v1.json, produced by the published 1.8.0 packages). */
export { vectors }
