import { expect, test } from 'vitest'
import * as constants from './constants.js'

test('default: the figures PRODUCT.md names', () => {
  expect({ ...constants }).toEqual({
    HTTP_TIMEOUT_MS: 60000,
    BLOCK_POLLING_INTERVAL_MS: 4000,
    BLOCK_FETCH_RETRIES: 5,
    BLOCK_FETCH_RETRY_DELAY_MS: 1000,
  })
})
