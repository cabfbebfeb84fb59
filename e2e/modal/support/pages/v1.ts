import WalletConnect from '@walletconnect/client'
import qrcodeModal from '../../../../packages/modal/src/open.js'

declare global {
  interface Window {
    v1: { uri: () => string; result: Promise<string>; modalClosed: number }
  }
}

// v1's client drives our modal exactly as it drove @walletconnect/qrcode-modal.
const connector = new WalletConnect({
  bridge: location.origin,
  qrcodeModal,
  qrcodeModalOptions: { registryUrl: '/registry' },
})
const state = { uri: () => connector.uri, modalClosed: 0, result: Promise.resolve('') }
connector.on('modal_closed', () => {
  state.modalClosed++
})
state.result = connector.connect().then(
  () => 'connected',
  (error: Error) => error.message,
)
window.v1 = state
