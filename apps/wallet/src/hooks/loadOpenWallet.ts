let openWalletModule: Promise<typeof import('./openWallet.js')> | undefined

/**
 * `openWallet`, loaded on first use: the clients and viem's signing stay out of the first screen's bundle. One
 * promise for every caller, so a restore and a deep link's pairing waiting for it go on in the order they asked (the
 * restored session first, then the link replacing it, as when the code was in the bundle); a failed load is tried again on the next call.
 *
 * @example
 * const openWallet = await loadOpenWallet()
 */
export function loadOpenWallet(): Promise<typeof import('./openWallet.js').openWallet> {
  openWalletModule ??= import('./openWallet.js').catch((error: unknown) => {
    openWalletModule = undefined
    throw error
  })
  return openWalletModule.then((module) => module.openWallet)
}
