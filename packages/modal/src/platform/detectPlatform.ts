/**
 * Where the modal runs, which picks its first view (reference §6.3): `desktop` opens on the QR code,
 * `ios` and other `mobile` browsers on the wallet list, `android` on one Connect button.
 */
export type Platform = 'desktop' | 'ios' | 'android' | 'mobile'

/** The parts of `navigator` that {@link detectPlatform} reads. */
export type DetectPlatformParameters = { userAgent?: string | undefined; maxTouchPoints?: number | undefined }

/**
 * Detects the platform from the user agent as v1 does (reference §6.2): Android by name, iOS by name or a
 * touch "Mac" (iPadOS reports a desktop Safari user agent), other phones as `mobile`, the rest `desktop`.
 *
 * @example
 * detectPlatform(navigator) // 'desktop'
 */
export function detectPlatform(nav: DetectPlatformParameters | undefined = globalThis.navigator): Platform {
  const ua = nav?.userAgent ?? ''
  if (/android/i.test(ua)) return 'android'
  if (/iphone|ipad|ipod/i.test(ua)) return 'ios'
  if (/macintosh|mac os/i.test(ua) && (nav?.maxTouchPoints ?? 0) > 1) return 'ios'
  if (/mobi|opera mini|iemobile|blackberry|webos|windows phone/i.test(ua)) return 'mobile'
  return 'desktop'
}
