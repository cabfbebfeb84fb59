// Smart accounts on a dev chain (contracts/PairlinkAccount.sol): an EIP-1271 account with one owner key, deployed by a
// CREATE2 factory, so that an account not deployed yet signs with an EIP-6492 wrapper naming that factory.
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  serializeErc6492Signature,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { ANVIL_ACCOUNT } from './anvil.js'
import { PairlinkAccount, PairlinkAccountFactory } from './contracts.js'

/** One smart account: its factory, owner key and salt fix its address, deployed or not. */
export type SmartAccount = {
  factory: Address
  /** The owner's private key: what signs for the account. */
  owner: Hex
  salt: Hex
}

const clients = (url: string, key: Hex = ANVIL_ACCOUNT.privateKey) => ({
  public: createPublicClient({ chain: foundry, transport: http(url) }),
  wallet: createWalletClient({ account: privateKeyToAccount(key), chain: foundry, transport: http(url) }),
})

/** Deploys the account factory on the dev chain at `url` from a funded dev key; answers its address once mined. */
export async function deployAccountFactory(
  url: string,
  deployer: Hex = ANVIL_ACCOUNT.privateKey,
): Promise<Address> {
  const { public: reader, wallet } = clients(url, deployer)
  const hash = await wallet.deployContract({
    abi: PairlinkAccountFactory.abi,
    bytecode: PairlinkAccountFactory.bytecode,
  })
  const receipt = await reader.waitForTransactionReceipt({ hash })
  if (!receipt.contractAddress) throw new Error('The account factory was not deployed')
  return receipt.contractAddress
}

/** The account's address (CREATE2 under its factory), whether it is deployed or not. */
export function smartAccountAddress(account: SmartAccount): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: account.factory,
    salt: account.salt,
    bytecode: encodeDeployData({
      abi: PairlinkAccount.abi,
      bytecode: PairlinkAccount.bytecode,
      args: [privateKeyToAccount(account.owner).address],
    }),
  })
}

/** The factory call that deploys the account: what an EIP-6492 signature carries. */
function deployCall(account: SmartAccount): Hex {
  return encodeFunctionData({
    abi: PairlinkAccountFactory.abi,
    functionName: 'deploy',
    args: [privateKeyToAccount(account.owner).address, account.salt],
  })
}

/** Deploys the account through its factory from a funded dev key; answers its address once mined. */
export async function deploySmartAccount(
  url: string,
  account: SmartAccount,
  deployer: Hex = ANVIL_ACCOUNT.privateKey,
): Promise<Address> {
  const { public: reader, wallet } = clients(url, deployer)
  const hash = await wallet.sendTransaction({ to: account.factory, data: deployCall(account) })
  await reader.waitForTransactionReceipt({ hash })
  return smartAccountAddress(account)
}

/**
 * Signs `message` (EIP-191, as `personal_sign`) for the account: its owner's signature, which the account's
 * `isValidSignature` accepts (EIP-1271); wrapped with the factory call (EIP-6492) when `deployed` is false.
 */
export async function signAsSmartAccount(
  account: SmartAccount,
  message: string,
  options: { deployed: boolean },
): Promise<Hex> {
  const signature = await privateKeyToAccount(account.owner).signMessage({ message })
  if (options.deployed) return signature
  return serializeErc6492Signature({ address: account.factory, data: deployCall(account), signature })
}
