import { WALLETCONNECT_EXPLORER_URL, WALLETCONNECT_RELAY_URL } from '@pairlink/protocol/v2'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { announce, stopAnnouncing } from '../../modal/test/injected.js'
import { createModalAdapter, type ModalModule } from './modalAdapter.js'
import { resolveRelayUrl } from './pairlink.js'

const uri = `wc:${'7f'.repeat(32)}@2?expiryTimestamp=${Math.floor(Date.now() / 1000) + 300}&relay-protocol=irn&symKey=${'58'.repeat(32)}`
const projectId = 'c0ffee254729296a45a3885639ac7e10'
const shadow = () => document.getElementById('walletconnect-wrapper')?.shadowRoot

/** Pairlink's real modal, loaded afresh (it hears the page's wallets for its lifetime). */
async function loadModal(): Promise<ModalModule> {
  vi.resetModules()
  return (await import('@pairlink/modal')) as ModalModule
}

afterEach(async () => {
  ;(await import('@pairlink/modal')).close()
  document.body.replaceChildren()
  stopAnnouncing()
})

describe('createModalAdapter', () => {
  test("default: the URI goes to wagmi; the modal gets the projectId, so its list is WalletConnect's explorer", async () => {
    const uris: string[] = []
    const asked: string[] = []
    const fetch = (async (input: string) => {
      asked.push(String(input))
      return new Response('{"count":0,"data":[]}')
    }) as typeof globalThis.fetch
    const modal = createModalAdapter({ onUri: (next) => uris.push(next), projectId })
    modal.setModal(await loadModal())
    modal.adapter.open(uri, () => {}, { platform: 'ios', fetch })
    expect(uris).toEqual([uri])
    expect(shadow()?.getElementById('walletconnect-qrcode-modal')).toBeTruthy()
    expect(asked.map((url) => url.split('?')[0])).toEqual([`${WALLETCONNECT_EXPLORER_URL}/getWallets`])
  })

  test('behavior: the browser wallets are offered; choosing one ends the pairing as a close and is remembered', async () => {
    const wallet = announce({ rdns: 'io.metamask', name: 'MetaMask' })
    const modal = createModalAdapter({ onUri: () => {} })
    modal.setModal(await loadModal())
    const onUserClose = vi.fn()
    modal.adapter.open(uri, onUserClose, { platform: 'desktop' })
    expect(modal.chosen()).toBeUndefined()
    shadow()?.querySelector<HTMLButtonElement>('button.chip')?.click()
    expect(onUserClose).toHaveBeenCalledTimes(1)
    expect(modal.chosen()?.info.rdns).toBe('io.metamask')
    expect(modal.chosen()?.provider).toBe(wallet.provider)
    modal.reset()
    expect(modal.chosen()).toBeUndefined()
  })

  test("behavior: a refusal shows the modal's message, also when no pairing opened it", async () => {
    const modal = createModalAdapter({
      onUri: () => {},
      modalOptions: { platform: 'desktop', language: 'en' },
    })
    modal.setModal(await loadModal())
    modal.showRefusal()
    expect(shadow()?.getElementById('walletconnect-refused')?.textContent).toContain(
      'The relay refused this site',
    )
  })
})

describe('resolveRelayUrl', () => {
  test("args: a projectId without relayUrl means WalletConnect's relay", () => {
    expect(resolveRelayUrl({ projectId })).toBe(WALLETCONNECT_RELAY_URL)
    expect(resolveRelayUrl({ projectId, relayUrl: 'wss://pairlink.example' })).toBe('wss://pairlink.example')
    expect(resolveRelayUrl({})).toBeUndefined()
  })
})
