import { waitFor } from '@pairlink/test-kit'
import { beforeEach, expect, test, vi } from 'vitest'

const calls: string[] = []
vi.mock('./modal.js', () => ({
  open: (uri: string) => calls.push(`open ${uri}`),
  close: () => calls.push('close'),
  setStatus: (status: string) => calls.push(`status ${status}`),
}))

beforeEach(() => {
  calls.length = 0
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
