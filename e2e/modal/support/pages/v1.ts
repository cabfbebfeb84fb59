import WalletConnectModule from '@walletconnect/client'
import qrcodeModal from '../../../../packages/modal/src/open.js'

// @walletconnect/client is CommonJS with `exports.default` and `__esModule`: a bundler's default import (esbuild
// builds this page) is the class, while Node's, which NodeNext types, is the module object. Take the class either
// way, typed as the package declares it.
type WalletConnectClass = typeof WalletConnectModule.default
const WalletConnect =
  (WalletConnectModule as { default?: WalletConnectClass }).default ??
  (WalletConnectModule as unknown as WalletConnectClass)

declare global {
  interface Window {
    v1: { uri: () => string; result: Promise<string>; modalClosed: number }
  }
}

// v1's client drives our modal exactly as it drove @walletconnect/qrcode-modal.
const connector = new WalletConnect({
  bridge: new URLSearchParams(location.search).get('bridge') ?? location.origin,
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
