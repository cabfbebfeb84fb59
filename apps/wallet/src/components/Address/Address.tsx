/**
 * An address in two unbreakable halves: on one line when it fits, else in two equal lines, never with a lone
 * character carried over. Its text is the whole address (copying it, or reading `textContent`, gives it unchanged).
 */
export function Address({ address }: { address: string }) {
  const half = Math.ceil(address.length / 2)
  return (
    <>
      <span className="address-half">{address.slice(0, half)}</span>
      <span className="address-half">{address.slice(half)}</span>
    </>
  )
}
