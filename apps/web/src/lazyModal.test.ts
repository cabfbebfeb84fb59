import { waitFor } from '@pairlink/test-kit'
import { beforeEach, expect, test, vi } from 'vitest'

const calls: string[] = []
const focus: unknown[] = []
let given: { onInjected?: (wallet: unknown) => void } | undefined
vi.mock('./modal.js', () => ({
  open: (
    uri: string,
    _: unknown,
    options: { returnFocusTo?: unknown; onInjected?: (wallet: unknown) => void },
  ) => {
    focus.push(options.returnFocusTo)
    given = options
    calls.push(`open ${uri}`)
  },
  close: () => calls.push('close'),
  setStatus: (status: string) => calls.push(`status ${status}`),
}))

beforeEach(() => {
  calls.length = 0
  focus.length = 0
})

test('close and setStatus before any open do nothing; after open, calls reach the modal in order', async () => {
  const { lazyModal } = await import('./lazyModal.js')
  lazyModal.close()
  lazyModal.setStatus?.('unreachable')
  await vi.dynamicImportSettled()
  expect(calls).toEqual([])

  lazyModal.open('wc:topic@1', () => {})
  lazyModal.setStatus?.('unreachable')
  lazyModal.close()
  await waitFor(() => calls.length === 3, { message: 'the three calls reached the modal' })
  expect(calls).toEqual(['open wc:topic@1', 'status unreachable', 'close'])
})

test('behavior: a fresh URI for the open modal keeps the focus target it opened with (the modal swaps it in place)', async () => {
  const { lazyModal } = await import('./lazyModal.js')
  const options = { onExpired: () => {} }
  vi.stubGlobal('document', { activeElement: 'connect button' })
  lazyModal.open('wc:a@2', () => {}, options)
  vi.stubGlobal('document', { activeElement: 'a tab inside the modal' })
  lazyModal.open('wc:b@2', () => {}, options)
  lazyModal.close()
  lazyModal.open('wc:c@2', () => {}, options)
  await waitFor(() => calls.length === 4, { message: 'the four calls reached the modal' })
  vi.unstubAllGlobals()
  expect(calls).toEqual(['open wc:a@2', 'open wc:b@2', 'close', 'open wc:c@2'])
  expect(focus).toEqual(['connect button', 'connect button', 'a tab inside the modal'])
})

test('behavior: rememberFocus keeps the element focused at Connect for a modal that opens later', async () => {
  const { lazyModal, rememberFocus } = await import('./lazyModal.js')
  vi.stubGlobal('document', { activeElement: 'connect button' })
  rememberFocus()
  vi.stubGlobal('document', { activeElement: 'body, once the button was disabled' })
  lazyModal.open('wc:a@2', () => {}, {})
  lazyModal.close()
  await waitFor(() => calls.length === 2, { message: 'the calls reached the modal' })
  vi.unstubAllGlobals()
  expect(focus).toEqual(['connect button'])
})

test('behavior: a browser wallet chosen in the modal goes to the app, then the pairing ends as a closed modal', async () => {
  const { lazyModal } = await import('./lazyModal.js')
  const order: string[] = []
  lazyModal.open('wc:a@2', () => order.push('pairing ended'), {
    onInjected: (wallet: string) => order.push(`chose ${wallet}`),
  })
  await waitFor(() => calls.length === 1, { message: 'the modal opened' })
  given?.onInjected?.('org.test')
  expect(order).toEqual(['chose org.test', 'pairing ended'])
  // Without the option, the modal lists no browser wallet.
  lazyModal.open('wc:b@2', () => {}, {})
  await waitFor(() => calls.length === 2, { message: 'the modal opened again' })
  expect(given?.onInjected).toBeUndefined()
})
