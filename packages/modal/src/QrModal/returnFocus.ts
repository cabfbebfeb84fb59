/**
 * Puts focus back on the element that opened the modal. Apps often disable their opener while a pairing runs (a
 * *Connect wallet* button that shows it waits) and enable it only after the modal has gone, when a disabled button
 * cannot take focus: focus then follows as soon as it is enabled again, unless focus has moved elsewhere meanwhile.
 *
 * @example
 * returnFocus(opener)
 */
export function returnFocus(opener: HTMLElement): void {
  opener.focus()
  if (!opener.matches(':disabled')) return
  const document = opener.ownerDocument
  const stop = () => {
    observer.disconnect()
    document.removeEventListener('focusin', stop, true)
  }
  const observer = new MutationObserver(() => {
    if (opener.matches(':disabled')) return
    stop()
    const active = document.activeElement
    if (opener.isConnected && (active === null || active === document.body)) opener.focus()
  })
  observer.observe(opener, { attributes: true, attributeFilter: ['disabled'] })
  document.addEventListener('focusin', stop, true)
}
