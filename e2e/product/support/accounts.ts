import { ANVIL_ACCOUNT } from '@pairlink/test-kit/anvil'
import { mnemonicToAccount } from 'viem/accounts'

/** The dev chain's mnemonic (anvil's default): its accounts are funded with 10,000 ETH each. */
const MNEMONIC = 'test test test test test test test test test test test junk'

/** Dev account `index` of {@link MNEMONIC}. */
export const devAccount = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index })

/** The address the reference wallet and the test wallets connect with (dev account 0). */
export const ACCOUNT_0 = ANVIL_ACCOUNT.address
/** The web app's default payment recipient (dev account 1). */
export const ACCOUNT_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
