import { expect, test } from 'vitest'
import * as provider from './index.js'

test('exports', () => {
  expect(Object.keys(provider).sort()).toMatchInlineSnapshot(`
    [
      "BlockNotFoundError",
      "ChainDisconnectedError",
      "DisconnectedError",
      "HIDDEN_POLLING_FACTOR",
      "HttpRequestError",
      "InvalidProviderParametersError",
      "UnauthorizedError",
      "UnsupportedMethodError",
      "UserRejectedRequestError",
      "createBlockTracker",
      "createHttpConnection",
      "createProvider",
    ]
  `)
})
