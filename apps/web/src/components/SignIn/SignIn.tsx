import type { SignInState } from '../../hooks/useSignIn.js'
import { useWalletPrompt } from '../../hooks/useWalletPrompt.js'
import { fill } from '../../i18n/fill.js'
import { t } from '../../i18n/i18n.js'
import { CancelButton, Card, Outcome } from '../Card/Card.js'
import { RequestLifeLine } from '../RequestLife/RequestLife.js'

/** Props of {@link SignIn}. */
export type SignInProps = { signIn: SignInState }

const STATUS_TEXT = {
  checking: 'sign_in_checking',
  'signed-out': 'sign_in_signed_out',
  signing: 'sign_in_signing',
} as const

/**
 * Sign-In with Ethereum (EIP-4361) against the server: the wallet signs a login message, the server checks it and
 * keeps a session; then Sign out.
 */
export function SignIn({ signIn }: SignInProps) {
  const prompt = useWalletPrompt()
  const { status, account, message } = signIn
  return (
    <Card title={t('sign_in_title')} description={t('sign_in_description')} testId="sign-in">
      <p
        className={status === 'signed-in' ? 'verified' : 'muted'}
        role="status"
        data-testid="sign-in-status"
        data-state={status}
      >
        {account
          ? fill(t('signed_in_as'), { address: <code data-testid="sign-in-address">{account.address}</code> })
          : t(STATUS_TEXT[status === 'signed-in' ? 'signed-out' : status])}
      </p>
      <div className="button-row">
        {account ? (
          <button type="button" data-testid="sign-out-button" onClick={() => void signIn.signOut()}>
            {t('sign_out')}
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            data-testid="sign-in-button"
            disabled={status !== 'signed-out'}
            onClick={() => {
              prompt.focus()
              void signIn.signIn()
            }}
          >
            {status === 'signing' ? prompt.waiting : t('sign_in_button')}
          </button>
        )}
        {status === 'signing' ? <CancelButton testId="sign-in" onCancel={signIn.cancel} /> : null}
      </div>
      <RequestLifeLine testId="sign-in" busy={status === 'signing'} methods={['personal_sign']} />
      <div className="result">
        {message && message.tone !== 'error' ? (
          <p className="outcome" role="status" data-testid="sign-in-result" data-tone={message.tone}>
            {message.text}
          </p>
        ) : null}
        <Outcome testId="sign-in" error={message?.tone === 'error' ? message.text : undefined} />
      </div>
    </Card>
  )
}
