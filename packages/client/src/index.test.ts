import { expect, test } from 'vitest'
import * as client from './index.js'

test('exports', () => {
  expect(Object.keys(client).sort()).toMatchInlineSnapshot(`
    [
      "ClientClosedError",
      "InvalidClientOptionsError",
      "RequestTimeoutError",
      "approveRequest",
      "approveSession",
      "close",
      "connect",
      "createClient",
      "createFileStorage",
      "createLocalStorage",
      "createMemoryStorage",
      "createSession",
      "dappActions",
      "getReconnectDelay",
      "getWebSocketUrl",
      "killSession",
      "rejectRequest",
      "rejectSession",
      "request",
      "sendTransaction",
      "signMessage",
      "signPersonalMessage",
      "signTransaction",
      "signTypedData",
      "updateSession",
      "walletActions",
    ]
  `)
})
