import { RpcError } from '@pairlink/protocol'
import {
  deploySmartAccount,
  getSmartAccountAddress,
  SmartAccountDeployError,
  toSmartAccountSignature,
} from '@pairlink/smart-account'
import type { Address, LocalAccount } from 'viem'
import { toAccount } from 'viem/accounts'

/**
 * How the wallet's key acts: as itself (`eoa`), or as its smart account (`PairlinkAccount` of
 * `@pairlink/smart-account`) on the dev chain — `deployed` (EIP-1271: the wallet deploys it from the key on first
 * need) or `counterfactual` (EIP-6492: never deployed, every signature names the factory and its deploy call).
 */
export type AccountKind = 'eoa' | 'deployed' | 'counterfactual'

/** The smart-account kinds, as the CLI's `--smart-account` and the page's choice name them. */
export const SMART_ACCOUNT_KINDS = ['deployed', 'counterfactual'] as const

/** The dev chain, where the account factory is at its fixed address and the dev keys are funded (anvil). */
export const SMART_ACCOUNT_CHAIN_ID = 31337

/** A smart account the wallet signs for: a viem account whose address is the contract's. */
export type SmartAccount = LocalAccount<'pairlink-smart-account'> & {
  kind: Exclude<AccountKind, 'eoa'>
  /** The key that signs for the account (and deploys it). */
  owner: LocalAccount
  /** Deploys the account unless it is (`deployed` only; once per account); resolves with its address. */
  deploy(): Promise<Address>
}

/** Parameters of {@link toSmartAccount}. */
export type ToSmartAccountParameters = {
  /** The owner key's account; funded on the dev chain for `deployed` (anvil's dev keys are). */
  owner: LocalAccount
  kind: Exclude<AccountKind, 'eoa'>
  /** The dev chain's node: where a `deployed` account is deployed. */
  rpcUrl: string
}

/**
 * The smart account of `owner`: messages and typed data are signed by the owner's key over the hash the verifier
 * checks (what `PairlinkAccount.isValidSignature` recovers), wrapped for EIP-6492 when `counterfactual`. A `deployed`
 * account is deployed before its first signature. Transactions are refused (4200): the account has no `execute`.
 *
 * @example
 * const account = toSmartAccount({ owner: getDevAccount(0), kind: 'counterfactual', rpcUrl })
 * await account.signMessage({ message: 'hello' }) // 0x…6492…6492 (EIP-6492)
 */
export function toSmartAccount(parameters: ToSmartAccountParameters): SmartAccount {
  const { owner, kind, rpcUrl } = parameters
  const address = getSmartAccountAddress({ owner: owner.address })
  let deployment: Promise<Address> | undefined
  const deploy = () => {
    if (kind !== 'deployed') return Promise.resolve(address)
    deployment ??= deploySmartAccount({ url: rpcUrl, from: owner, owner: owner.address }).catch(
      (error: unknown) => {
        // A node down now may answer later: the next signature tries again.
        deployment = undefined
        const reason = error instanceof SmartAccountDeployError ? error.details : undefined
        throw new RpcError(
          `The smart account ${address} could not be deployed from its key${reason ? ` (${reason})` : ''}`,
          { code: -32603, cause: error },
        )
      },
    )
    return deployment
  }
  const wrap = async (sign: () => Promise<`0x${string}`>) => {
    await deploy()
    return toSmartAccountSignature({
      owner: owner.address,
      signature: await sign(),
      deployed: kind === 'deployed',
    })
  }
  const account = toAccount({
    address,
    signMessage: ({ message }) => wrap(() => owner.signMessage({ message })),
    signTypedData: (typedData) => wrap(() => owner.signTypedData(typedData)),
    signTransaction: async () => {
      throw smartAccountTransactionError(address)
    },
  })
  return { ...account, source: 'pairlink-smart-account', publicKey: owner.publicKey, kind, owner, deploy }
}

/** Whether `account` is a {@link SmartAccount}. */
export function isSmartAccount(account: LocalAccount): account is SmartAccount {
  return account.source === 'pairlink-smart-account'
}

/** The 4200 answer to a transaction from a smart account: PairlinkAccount has no `execute` to route it through. */
export function smartAccountTransactionError(address: string): RpcError {
  return new RpcError(
    `The wallet does not send transactions from the smart account ${address}: it signs messages and typed data only`,
    { code: 4200 },
  )
}
