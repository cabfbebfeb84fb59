/** UTF-8 size of a string, without allocating (frames are mostly ASCII hex: the slow branches are rare). */
export function byteLength(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes++
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair: two UTF-16 units, four UTF-8 bytes.
      bytes += 2
      i++
    } else bytes += 2
  }
  return bytes
}
