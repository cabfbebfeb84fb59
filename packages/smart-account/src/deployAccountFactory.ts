import {
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type LocalAccount,
} from 'viem'
import { ACCOUNT_FACTORY_ADDRESS, ACCOUNT_FACTORY_SALT, CREATE2_DEPLOYER_ADDRESS } from './constants.js'
import { PairlinkAccountFactory } from './contracts.js'
import { SmartAccountDeployError } from './errors.js'

/** Parameters of {@link deployAccountFactory} and `deploySmartAccount`. */
export type DeployParameters = {
  /** The chain's JSON-RPC node. */
  url: string
  /** A funded account that sends the deployment (an anvil dev key). */
  from: LocalAccount
}

/**
 * Deploys `PairlinkAccountFactory` at {@link ACCOUNT_FACTORY_ADDRESS} through the chain's CREATE2 deployer, unless
 * code is there already (idempotent: any number of wallets and servers may call it). Throws
 * {@link SmartAccountDeployError} when the chain has no CREATE2 deployer or the deployment left no code.
 *
 * @example
 * await deployAccountFactory({ url: anvil.url, from: privateKeyToAccount(ANVIL_ACCOUNT.privateKey) })
 */
export async function deployAccountFactory(parameters: DeployParameters): Promise<Address> {
  await deployOnce(parameters, ACCOUNT_FACTORY_ADDRESS, async (reader) => {
    if (!(await reader.getCode({ address: CREATE2_DEPLOYER_ADDRESS })))
      throw new SmartAccountDeployError('The chain has no CREATE2 deployer', {
        details: `no code at ${CREATE2_DEPLOYER_ADDRESS}: anvil has it from genesis; other chains need it deployed first`,
      })
    return {
      to: CREATE2_DEPLOYER_ADDRESS,
      data: concat([ACCOUNT_FACTORY_SALT, PairlinkAccountFactory.bytecode]),
    }
  })
  return ACCOUNT_FACTORY_ADDRESS
}

/**
 * Sends the transaction `prepare` gives unless `address` has code already, then checks the code is there. One place
 * for both deployments: the factory's and an account's.
 */
export async function deployOnce(
  { url, from }: DeployParameters,
  address: Address,
  prepare: (reader: ReturnType<typeof createPublicClient>) => Promise<{ to: Address; data: Hex }>,
): Promise<void> {
  const transport = http(url, { retryCount: 0, timeout: 20_000 })
  // Dev chains mine a transaction at once: a short poll keeps a start-up from waiting on viem's 4 s default.
  const reader = createPublicClient({ transport, pollingInterval: 50 })
  try {
    if (await reader.getCode({ address })) return
    const transaction = await prepare(reader)
    const wallet = createWalletClient({ account: from, transport })
    const hash = await wallet.sendTransaction({ ...transaction, chain: null })
    await reader.waitForTransactionReceipt({ hash, timeout: 20_000 })
    if (!(await reader.getCode({ address }))) throw new Error(`no code at ${address} after ${hash}`)
  } catch (error) {
    if (error instanceof SmartAccountDeployError) throw error
    throw new SmartAccountDeployError(`Could not deploy ${address} on the chain at ${url}`, {
      details: error instanceof Error ? error.message.split('\n')[0] : String(error),
      cause: error,
    })
  }
}
