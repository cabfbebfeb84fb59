import { WALLETCONNECT_EXPLORER_URL } from '@pairlink/protocol/v2'
import { fireEvent } from '@testing-library/dom'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { fakeFetch, flush, modal, registryUrl, uri } from '../../test/fixtures.js'
import { announce, stopAnnouncing } from '../../test/injected.js'
import type { Modal } from './createModal.js'

const load = async () => {
  vi.resetModules()
  const { createModal } = await import('./createModal.js')
  return (parameters: Parameters<typeof createModal>[0]) => {
    const created = createModal(parameters)
    mounted.push(created)
    return created
  }
}
const mounted: Modal[] = []
const projectId = 'c0ffee254729296a45a3885639ac7e10'
const walletNames = () => [...modal().root.querySelectorAll('a.wallet .name')].map((name) => name.textContent)

/** A `fetch` answering as WalletConnect's explorer does (`{ count, data }`), recording what it was asked. */
function explorerFetch(data: object[]) {
  const calls: string[] = []
  const fetch = (async (input: string | URL | Request) => {
    calls.push(String(input))
    return new Response(JSON.stringify({ count: data.length, data }))
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

afterEach(() => {
  for (const created of mounted.splice(0)) created.destroy()
  document.body.replaceChildren()
  stopAnnouncing()
})

describe('createModal: where the wallet list comes from', () => {
  test('default: no registryUrl and no projectId — no fetch, no list, no error; the QR code on an iPhone', async () => {
    const createModal = await load()
    const { fetch, calls } = fakeFetch()
    createModal({ uri, platform: 'ios', fetch })
    const m = modal()
    expect(calls).toEqual([])
    expect(m.queryAllByRole('tab')).toEqual([])
    expect(m.root.textContent).not.toContain('Something went wrong')
    expect(m.root.textContent).not.toContain('Loading...')
    expect(m.root.getElementById('walletconnect-qrcode-text')).toBeTruthy()
  })

  test('behavior: no list on Android either — its Connect button stays', async () => {
    const createModal = await load()
    createModal({ uri, platform: 'android', fetch: fakeFetch().fetch })
    expect(modal().root.getElementById('walletconnect-connect-button-Connect')?.getAttribute('href')).toBe(
      uri,
    )
  })

  test("args: projectId — WalletConnect's explorer, its logos by image_id", async () => {
    const createModal = await load()
    const { fetch, calls } = explorerFetch([
      { id: 'a', name: 'MetaMask', rdns: 'io.metamask', mobile_link: 'metamask://', image_id: 'mm' },
      { id: 'b', name: 'Rainbow', rdns: 'me.rainbow', mobile_link: 'https://rnbwapp.com', image_id: 'rb' },
    ])
    createModal({ uri, platform: 'ios', fetch, projectId })
    await flush()
    expect(calls).toHaveLength(1)
    const url = new URL(calls[0] ?? '')
    expect(`${url.origin}${url.pathname}`).toBe(`${WALLETCONNECT_EXPLORER_URL}/getWallets`)
    expect(url.searchParams.get('projectId')).toBe(projectId)
    expect(walletNames()).toEqual(['MetaMask', 'Rainbow'])
    const links = [...modal().root.querySelectorAll('a.wallet')].map((a) => a.getAttribute('href'))
    expect(links).toEqual([
      `metamask:///wc?uri=${encodeURIComponent(uri)}`,
      `https://rnbwapp.com/wc?uri=${encodeURIComponent(uri)}`,
    ])
    expect(modal().root.querySelector('a.wallet img')?.getAttribute('src')).toBe(
      `${WALLETCONNECT_EXPLORER_URL}/getWalletImage/mm?projectId=${projectId}&st=pairlink&sv=pairlink-modal-0.1.0`,
    )
  })

  test('args: registryUrl wins over projectId', async () => {
    const createModal = await load()
    const { fetch, calls } = fakeFetch()
    createModal({ uri, platform: 'ios', fetch, projectId, registryUrl })
    await flush()
    expect(calls).toEqual([registryUrl])
  })
})

describe('createModal: browser wallets are not listed twice', () => {
  const data = [
    { id: 'a', name: 'MetaMask', rdns: 'io.metamask', desktop_link: 'metamask://' },
    { id: 'b', name: 'Ledger Live', rdns: null, desktop_link: 'ledgerlive://' },
    { id: 'c', name: 'Rabby', rdns: 'io.rabby', desktop_link: 'rabby://' },
    { id: 'd', name: 'Zerion', rdns: '', desktop_link: 'zerion://' },
  ]

  test('default: a wallet the browser announces (by rdns) leaves the Desktop tab, also one announced later', async () => {
    announce({ rdns: 'io.metamask', name: 'MetaMask' })
    const createModal = await load()
    createModal({
      uri,
      platform: 'desktop',
      projectId,
      fetch: explorerFetch(data).fetch,
      onInjected: () => {},
    })
    fireEvent.click(modal().getByRole('tab', { name: 'Desktop' }))
    await flush()
    expect(walletNames()).toEqual(['Ledger Live', 'Rabby', 'Zerion'])
    announce({ rdns: 'io.rabby', name: 'Rabby' })
    expect(walletNames()).toEqual(['Ledger Live', 'Zerion'])
  })

  test('behavior: without onInjected (no browser wallets offered) the list keeps them', async () => {
    announce({ rdns: 'io.metamask', name: 'MetaMask' })
    const createModal = await load()
    createModal({ uri, platform: 'desktop', projectId, fetch: explorerFetch(data).fetch })
    fireEvent.click(modal().getByRole('tab', { name: 'Desktop' }))
    await flush()
    expect(walletNames()).toEqual(['MetaMask', 'Ledger Live', 'Rabby', 'Zerion'])
  })
})
