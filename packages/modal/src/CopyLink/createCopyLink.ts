import { COPIED_NOTIFICATION_MS } from '../constants.js'
import { h } from '../h.js'
import type { Strings } from '../locales/strings.js'

/** Parameters of {@link createCopyLink}. */
export type CreateCopyLinkParameters = { uri: string; strings: Strings }

/** The copy control: a `Copy to clipboard` button and the status line under it. */
export type CopyLink = {
  element: HTMLElement
  /** Copies `uri` from now on; `undefined` (the code expired) disables the button. */
  setUri: (uri: string | undefined) => void
  dispose: () => void
}

/**
 * The copy-link action of the QR view. After a copy, `Copied to clipboard!` shows for exactly
 * {@link COPIED_NOTIFICATION_MS} and is cleared once (v1 cleared it on an interval that kept firing); a second
 * copy restarts the 1200 ms. A copy that fails shows `Error` for the same time.
 *
 * @example
 * const copy = createCopyLink({ uri, strings }); panel.append(copy.element)
 */
export function createCopyLink({ uri: initial, strings }: CreateCopyLinkParameters): CopyLink {
  let uri = initial
  let timer: ReturnType<typeof setTimeout> | undefined
  const status = h('p', { class: 'toast', role: 'status' })
  const show = (text: string) => {
    clearTimeout(timer)
    status.textContent = text
    timer = setTimeout(() => {
      status.textContent = ''
    }, COPIED_NOTIFICATION_MS)
  }
  const button = h(
    'button',
    {
      type: 'button',
      class: 'copy',
      'data-key': 'copy',
      onclick: () => {
        copyText(uri, button).then((copied) => show(copied ? strings.copied_to_clipboard : strings.error))
      },
    },
    strings.copy_to_clipboard,
  )
  return {
    element: h('div', {}, button, status),
    setUri: (next) => {
      button.disabled = next === undefined
      if (next !== undefined) uri = next
    },
    dispose: () => clearTimeout(timer),
  }
}

async function copyText(text: string, near: HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    // Older browsers and non-secure origins have no async clipboard: fall back to a selected textarea.
    const area = h('textarea', { readonly: true, style: 'position:fixed;opacity:0' })
    area.value = text
    near.after(area)
    area.select()
    let copied = false
    try {
      copied = document.execCommand('copy')
    } catch {}
    area.remove()
    near.focus()
    return copied
  }
}
