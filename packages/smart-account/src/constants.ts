import type { Address, Hex } from 'viem'

/**
 * The deterministic CREATE2 deployer (Arachnid's "deterministic-deployment-proxy"), present on every anvil chain
 * from its genesis: called with `salt ‖ initcode`, it deploys at an address fixed by those two alone.
 */
export const CREATE2_DEPLOYER_ADDRESS: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/** The salt the account factory is deployed with through {@link CREATE2_DEPLOYER_ADDRESS}. */
export const ACCOUNT_FACTORY_SALT: Hex = `0x${'00'.repeat(32)}`

/**
 * Where `PairlinkAccountFactory` is on every dev chain: CREATE2 of {@link CREATE2_DEPLOYER_ADDRESS},
 * {@link ACCOUNT_FACTORY_SALT} and the factory's creation bytecode (`constants.test.ts` recomputes it, and checks it
 * on a fresh anvil). Changes whenever `contracts/PairlinkAccount.sol` does.
 */
export const ACCOUNT_FACTORY_ADDRESS: Address = '0xF988cdca31f6F868Be001f753728E3CbfD11ABBF'

/** The salt of a key's smart account under the factory: one account per owner key. */
export const SMART_ACCOUNT_SALT: Hex = `0x${'00'.repeat(32)}`
