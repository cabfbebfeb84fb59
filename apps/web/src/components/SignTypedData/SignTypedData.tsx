import { verifyTypedData } from 'viem'
import { usePublicClient, useSignTypedData } from 'wagmi'
import { useAction } from '../../hooks/useAction.js'
import { useWalletPrompt } from '../../hooks/useWalletPrompt.js'
import { t } from '../../i18n/i18n.js'
import { verifySignature } from '../../verifySignature.js'
import { CancelButton, Card, Outcome } from '../Card/Card.js'
import { RequestLifeLine } from '../RequestLife/RequestLife.js'
import { Signature } from '../SignMessage/Signature.js'
import { createMail } from './typedData.js'

// wagmi asks for v4; a wallet may be asked the older forms by other apps' code paths.
const TYPED_DATA_METHODS = ['eth_signTypedData_v4', 'eth_signTypedData']

/** Props of {@link SignTypedData}. */
export type SignTypedDataProps = { address: `0x${string}`; chainId: number }

/** Asks the wallet for an EIP-712 signature (`eth_signTypedData_v4`) and verifies it (a key's, or a smart account's). */
export function SignTypedData({ address, chainId }: SignTypedDataProps) {
  const mail = createMail(chainId, address)
  const { signTypedDataAsync } = useSignTypedData()
  const client = usePublicClient()
  const prompt = useWalletPrompt()
  const sign = useAction(async () => {
    const signature = await signTypedDataAsync({ account: address, ...mail })
    const check = { address, ...mail, signature }
    return {
      signature,
      verified: await verifySignature(
        () => verifyTypedData(check),
        client && (() => client.verifyTypedData(check)),
      ),
    }
  })
  return (
    <Card title={t('typed_title')} description={t('typed_description')} testId="sign-typed-data">
      <pre className="typed-data" data-testid="sign-typed-data-preview">
        {`${mail.primaryType} from ${mail.message.from.name} to ${mail.message.to.name}: “${mail.message.contents}”`}
      </pre>
      <div className="button-row">
        <button
          type="button"
          className="primary"
          data-testid="sign-typed-data-button"
          disabled={sign.busy}
          onClick={() => {
            prompt.focus()
            void sign.run()
          }}
        >
          {sign.busy ? prompt.waiting : t('typed_button')}
        </button>
        {sign.busy ? <CancelButton testId="sign-typed-data" onCancel={sign.cancel} /> : null}
      </div>
      <RequestLifeLine testId="sign-typed-data" busy={sign.busy} methods={TYPED_DATA_METHODS} />
      <div className="result signature-result">
        {sign.result ? <Signature testId="sign-typed-data" {...sign.result} /> : null}
        <Outcome testId="sign-typed-data" error={sign.error} />
      </div>
    </Card>
  )
}
