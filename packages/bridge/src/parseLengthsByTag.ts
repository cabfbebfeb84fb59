import { InvalidBridgeOptionsError } from './errors.js'

/** `tag:length` entries (`1109:98304`) as `maxMessageLengthByTag`. */
export function parseLengthsByTag(entries: readonly string[]): Record<number, number> {
  const lengths: Record<number, number> = {}
  for (const entry of entries) {
    const match = /^(\d+):(\d+)$/.exec(entry)
    if (!match)
      throw new InvalidBridgeOptionsError(
        `Invalid --relay-max-message-length-by-tag: expected tag:length, got ${entry}`,
      )
    lengths[Number(match[1])] = Number(match[2])
  }
  return lengths
}
