import { expect, expectTypeOf, test } from 'vitest'
import * as provider from './index.js'

test('exports', () => {
  expect(Object.keys(provider).sort()).toMatchInlineSnapshot(`
    [
      "BLOCK_FETCH_RETRIES",
      "BLOCK_FETCH_RETRY_DELAY_MS",
      "BLOCK_POLLING_INTERVAL_MS",
      "BlockNotFoundError",
      "ChainDisconnectedError",
      "ConnectionRefusedError",
      "DisconnectedError",
      "HIDDEN_POLLING_FACTOR",
      "HTTP_TIMEOUT_MS",
      "HttpRequestError",
      "InvalidProviderParametersError",
      "UnauthorizedError",
      "UnrecognizedChainError",
      "UnsupportedMethodError",
      "UserRejectedRequestError",
      "createBlockTracker",
      "createHttpConnection",
      "createProvider",
      "createV2Client",
    ]
  `)
})

test('types: the requestStatus event', () => {
  expectTypeOf<provider.ProviderEvents['requestStatus']>().toEqualTypeOf<provider.RequestStatusEvent>()
  expectTypeOf<provider.RequestStatus>().toEqualTypeOf<
    'sent' | 'relayed' | 'answered' | 'expired' | 'failed'
  >()
})
