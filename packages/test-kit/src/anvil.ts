// The dev chain has one home, @pairlink/smart-account/anvil, which the server starts too; the tests take it from here
// with the dev accounts and a raw JSON-RPC call of their own.
export {
  type Anvil,
  AnvilError,
  resolveAnvilBinary,
  type StartAnvilParameters,
  startAnvil,
} from '@pairlink/smart-account/anvil'

/** anvil's default account #0: funded with 10000 ETH on every fresh chain. */
export const ANVIL_ACCOUNT = {
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
} as const

/** anvil's default chain id. */
export const ANVIL_CHAIN_ID = 31337

/** One JSON-RPC call straight to a node, bypassing the code under test (a test's own view of the chain). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}
