import { RpcError } from '@pairlink/protocol'
import { waitFor } from '@pairlink/test-kit'
import { afterEach, expect, test } from 'vitest'
import { createFakeNode, type FakeAnswer } from '../test/fakeNode.js'
import { HttpRequestError } from './errors.js'
import { createHttpConnection } from './httpConnection.js'

/** The RpcError a request rejects with; a request that resolves, or rejects with anything else, fails the test. */
async function rejection(pending: Promise<unknown>): Promise<RpcError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof RpcError)) throw new Error(`expected an RpcError, got ${String(error)}`)
  return error
}

const nodes: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.close()))
})
async function node(answer: FakeAnswer | ((method: string) => FakeAnswer)) {
  const fake = await createFakeNode((call) => (typeof answer === 'function' ? answer(call.method) : answer))
  nodes.push(fake)
  return fake
}

test('default', async () => {
  const fake = await node({ result: '0x7a69' })
  const http = createHttpConnection({ url: fake.url })
  await expect(http.request({ method: 'eth_chainId' })).resolves.toBe('0x7a69')
  const [call] = fake.calls
  expect(call?.headers['content-type']).toBe('application/json')
  expect(Object.keys(JSON.parse(call?.raw ?? ''))).toEqual(['jsonrpc', 'id', 'method', 'params'])
  expect(call).toMatchObject({ method: 'eth_chainId', params: [] })
  expect(typeof call?.id).toBe('number')
})

test('args: params are sent as given', async () => {
  const fake = await node({ result: '0x0' })
  const http = createHttpConnection({ url: fake.url })
  await http.request({
    method: 'eth_getBalance',
    params: ['0x0000000000000000000000000000000000000001', 'latest'],
  })
  expect(fake.calls[0]?.params).toEqual(['0x0000000000000000000000000000000000000001', 'latest'])
})

test('behavior: a null result is a result', async () => {
  const fake = await node({ result: null })
  await expect(
    createHttpConnection({ url: fake.url }).request({ method: 'eth_getBlockByNumber' }),
  ).resolves.toBe(null)
})

test('error: JSON-RPC error keeps code, message and data', async () => {
  const fake = await node({ error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } })
  const error = await rejection(createHttpConnection({ url: fake.url }).request({ method: 'eth_call' }))
  expect(error).toBeInstanceOf(RpcError)
  expect(error).toMatchObject({ code: 3, message: 'execution reverted', data: '0x08c379a0' })
})

test('error: method not found names the method', async () => {
  const fake = await node({ error: { code: -32601, message: 'Method not found' } })
  await expect(createHttpConnection({ url: fake.url }).request({ method: 'foo_bar' })).rejects.toMatchObject({
    code: -32601,
    message: 'Method not found: foo_bar',
  })
})

test('error: HTTP status', async () => {
  const fake = await node({ status: 502, body: 'Bad Gateway' })
  const error = await rejection(
    createHttpConnection({ url: fake.url }).request({ method: 'eth_blockNumber' }),
  )
  expect(error).toBeInstanceOf(HttpRequestError)
  expect(error).toMatchObject({ code: -32603, status: 502, details: 'status' })
  expect(error.message).toBe('HTTP request failed with status 502 (method: eth_blockNumber)')
})

test('error: HTTP status with a JSON-RPC error body keeps the node error', async () => {
  const fake = await node({
    status: 429,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'rate limited' } }),
  })
  await expect(createHttpConnection({ url: fake.url }).request({ method: 'eth_call' })).rejects.toMatchObject(
    {
      code: -32005,
      message: 'rate limited',
    },
  )
})

test('error: body is not JSON', async () => {
  const fake = await node({ status: 200, body: '<html>hello</html>' })
  await expect(createHttpConnection({ url: fake.url }).request({ method: 'eth_call' })).rejects.toMatchObject(
    {
      code: -32603,
      details: 'invalid-json',
      message: 'HTTP response is not JSON (method: eth_call)',
    },
  )
})

test('error: JSON that is not a JSON-RPC response', async () => {
  const fake = await node({ status: 200, body: '{"hello":1}' })
  await expect(createHttpConnection({ url: fake.url }).request({ method: 'eth_call' })).rejects.toMatchObject(
    {
      details: 'invalid-response',
      message: 'HTTP response is not a JSON-RPC response (method: eth_call)',
    },
  )
})

test('error: network failure', async () => {
  const fake = await node({ result: 1 })
  await fake.close()
  const error = await rejection(
    createHttpConnection({ url: fake.url }).request({ method: 'eth_blockNumber' }),
  )
  expect(error).toBeInstanceOf(HttpRequestError)
  expect(error).toMatchObject({ code: -32603, details: 'network' })
  expect(error.message).toBe('HTTP request failed (method: eth_blockNumber)')
  expect(error.cause).toBeDefined()
})

test('error: time-out against a node that never answers', async () => {
  const fake = await node('hang')
  const error = await rejection(
    createHttpConnection({ url: fake.url, timeout: 200 }).request({ method: 'eth_blockNumber' }),
  )
  expect(error).toBeInstanceOf(HttpRequestError)
  expect(error).toMatchObject({ code: -32603, details: 'timeout' })
  expect(error.message).toBe('HTTP request timed out after 200 ms (method: eth_blockNumber)')
})

test('error: eth_subscribe is refused without a request (v1 text)', async () => {
  const fake = await node({ result: '0x1' })
  const error = await rejection(
    createHttpConnection({ url: fake.url }).request({ method: 'eth_subscribe', params: ['newHeads'] }),
  )
  expect(error.message).toBe('Subscriptions are not supported by this HTTP endpoint')
  expect(error.code).toBe(4200)
  expect(fake.calls).toHaveLength(0)
})

test('behavior: an abort signal of the caller ends the request with its reason', async () => {
  const fake = await node('hang')
  const controller = new AbortController()
  const pending = createHttpConnection({ url: fake.url }).request(
    { method: 'eth_blockNumber' },
    { signal: controller.signal },
  )
  // Abort once the node holds the request, so the abort ends a request in flight.
  await waitFor(() => fake.calls.length === 1)
  controller.abort(new Error('gone'))
  await expect(pending).rejects.toThrow('gone')
})

test('behavior: messages carry neither the URL nor the body', async () => {
  const fake = await node({ status: 500, body: 'oops' })
  const url = `${fake.url}/v3/secret-api-key`
  const error = await rejection(
    createHttpConnection({ url }).request({
      method: 'eth_sendRawTransaction',
      params: ['0xdeadbeefsignature'],
    }),
  )
  expect(String(error.message)).not.toContain('secret-api-key')
  expect(String(error.message)).not.toContain('deadbeef')
  expect(String(error.details)).not.toContain('secret-api-key')
})
