import { useState } from 'react'

/** Props of {@link WalletIcon}. */
export type WalletIconProps = { name: string; src: string | undefined }

/** The wallet's icon from its metadata, or its initial when it has none or the image fails to load. */
export function WalletIcon({ name, src }: WalletIconProps) {
  const [failed, setFailed] = useState(false)
  if (!src || failed) {
    return (
      <span className="wallet-icon monogram" aria-hidden="true" data-testid="wallet-icon">
        {(name.trim()[0] ?? '?').toUpperCase()}
      </span>
    )
  }
  return (
    <img className="wallet-icon" src={src} alt="" data-testid="wallet-icon" onError={() => setFailed(true)} />
  )
}
