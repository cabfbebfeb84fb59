// A dapp built on the published v1 client (@walletconnect/client@1.8.0) that uses our modal as its qrcodeModal.

import qrcodeModal from '@pairlink/modal/open'
import WalletConnectModule from '@walletconnect/client'

type State = {
  status: string
  accounts: string[]
  chainId: number
  peerName: string
  signature: string
  error: string
  sign: (message: string) => Promise<void>
}

declare global {
  interface Window {
    v1dapp: State
  }
}

// CommonJS with an `exports.default`: the bundler hands over the class, the NodeNext types the module object.
const WalletConnect = ((WalletConnectModule as { default?: unknown }).default ??
  WalletConnectModule) as typeof WalletConnectModule.default

const params = new URLSearchParams(location.search)
const bridge = params.get('bridge') ?? location.origin
const connector = new WalletConnect({
  bridge,
  qrcodeModal,
  qrcodeModalOptions: { registryUrl: '/registry/wallets.json' },
  clientMeta: {
    name: 'v1 dapp',
    description: 'A dapp on @walletconnect/client 1.8.0',
    url: location.origin,
    icons: [],
  },
})
const status = document.getElementById('status') as HTMLElement
const state: State = {
  status: 'idle',
  accounts: [],
  chainId: 0,
  peerName: '',
  signature: '',
  error: '',
  async sign(message: string) {
    const hex = `0x${Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, '0')).join('')}`
    try {
      state.signature = await connector.signPersonalMessage([hex, state.accounts[0]])
    } catch (error) {
      state.error = (error as Error).message
    }
    render()
  },
}
window.v1dapp = state
const render = () => {
  status.textContent = `${state.status} ${state.peerName} ${state.accounts.join(',')} ${state.signature}`
}
connector.on('connect', (_error: Error | null, payload: { params: unknown[] }) => {
  const { accounts, chainId, peerMeta } = payload.params[0] as {
    accounts: string[]
    chainId: number
    peerMeta: { name: string }
  }
  Object.assign(state, { status: 'connected', accounts, chainId, peerName: peerMeta?.name ?? '' })
  render()
})
connector.on('disconnect', () => {
  state.status = 'disconnected'
  render()
})
document.getElementById('connect')?.addEventListener('click', () => {
  connector.createSession().catch((error: Error) => {
    state.error = error.message
  })
})
