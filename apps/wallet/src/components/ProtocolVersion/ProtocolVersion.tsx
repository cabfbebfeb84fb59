/** Which WalletConnect version a link or session speaks, as a chip (`WalletConnect v2`). */
export function ProtocolVersion({ version }: { version: 1 | 2 | null }) {
  if (version === null) return null
  return (
    <span className="chip protocol-version" data-testid="protocol-version">
      WalletConnect v{version}
    </span>
  )
}
