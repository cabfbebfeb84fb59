import type { Cacao } from '@pairlink/client/v2'
import { expectTypeOf, test } from 'vitest'
import { createV2Client, type V2Client, type V2ConnectReturnType } from './index.js'

test('behavior: a v2 client connects to its session and says what the wallet signed in', async () => {
  const client = createV2Client({ relayUrl: 'ws://127.0.0.1:1' })
  expectTypeOf(client).toEqualTypeOf<V2Client>()
  expectTypeOf(client.version).toEqualTypeOf<2>()
  const connected = await client.connect({ chainId: 1 })
  expectTypeOf(connected).toEqualTypeOf<V2ConnectReturnType>()
  expectTypeOf(connected.accounts).toEqualTypeOf<string[]>()
  expectTypeOf(connected.cacaos).toEqualTypeOf<Cacao[] | undefined>()
  client.on('connect', (payload) => expectTypeOf(payload).toEqualTypeOf<V2ConnectReturnType>())
  // @ts-expect-error chainId is a number
  client.connect({ chainId: 'eip155:1' })
})
