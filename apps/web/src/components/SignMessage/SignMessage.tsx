import { useState } from 'react'
import { verifyMessage } from 'viem'
import { usePublicClient, useSignMessage } from 'wagmi'
import { useAction } from '../../hooks/useAction.js'
import { useWalletPrompt } from '../../hooks/useWalletPrompt.js'
import { t } from '../../i18n/i18n.js'
import { verifySignature } from '../../verifySignature.js'
import { CancelButton, Card, Outcome } from '../Card/Card.js'
import { RequestLifeLine } from '../RequestLife/RequestLife.js'
import { Signature } from './Signature.js'

/** Props of {@link SignMessage}. */
export type SignMessageProps = { address: `0x${string}` }

/**
 * Asks the wallet to sign a text (`personal_sign`), then shows the signature and checks it is the account's: its key's,
 * or a smart account's through the chain (EIP-1271, EIP-6492).
 */
export function SignMessage({ address }: SignMessageProps) {
  const [message, setMessage] = useState(() => t('sign_message_default'))
  const { signMessageAsync } = useSignMessage()
  const client = usePublicClient()
  const prompt = useWalletPrompt()
  const sign = useAction(async () => {
    const signature = await signMessageAsync({ account: address, message })
    const check = { address, message, signature }
    return {
      signature,
      verified: await verifySignature(
        () => verifyMessage(check),
        client && (() => client.verifyMessage(check)),
      ),
    }
  })
  return (
    <Card title={t('sign_message_title')} description={t('sign_message_description')} testId="sign-message">
      <form
        onSubmit={(event) => {
          event.preventDefault()
          prompt.focus()
          void sign.run()
        }}
      >
        <label htmlFor="sign-message-input">{t('message')}</label>
        <textarea
          id="sign-message-input"
          data-testid="sign-message-input"
          rows={2}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
        <div className="button-row">
          <button
            type="submit"
            className="primary"
            data-testid="sign-message-button"
            disabled={sign.busy || !message}
          >
            {sign.busy ? prompt.waiting : t('sign_message_button')}
          </button>
          {sign.busy ? <CancelButton testId="sign-message" onCancel={sign.cancel} /> : null}
        </div>
        <RequestLifeLine testId="sign-message" busy={sign.busy} methods={['personal_sign']} />
      </form>
      <div className="result signature-result">
        {sign.result ? <Signature testId="sign-message" {...sign.result} /> : null}
        <Outcome testId="sign-message" error={sign.error} />
      </div>
    </Card>
  )
}
