import { generateSiweNonce } from 'viem/siwe'
import { useAction } from '../../hooks/useAction.js'
import { Card, Outcome } from '../Card/Card.js'
import { type SignInParameters, signIn } from './signIn.js'

/** Props of {@link SignIn}. */
export type SignInProps = Omit<SignInParameters, 'nonce' | 'domain' | 'uri'>

/** Sign-In with Ethereum (EIP-4361): the wallet signs a login message for this site, which the app verifies. */
export function SignIn(props: SignInProps) {
  const action = useAction(() =>
    signIn({ ...props, nonce: generateSiweNonce(), domain: location.host, uri: location.origin }),
  )
  return (
    <Card title="Sign in with Ethereum" description="Prove you own this account (EIP-4361)." testId="sign-in">
      <button
        type="button"
        data-testid="sign-in-button"
        disabled={action.busy}
        onClick={() => void action.run()}
      >
        {action.busy ? 'Confirm in your wallet…' : 'Sign in'}
      </button>
      {action.result !== undefined ? (
        <p
          className={`outcome ${action.result ? 'verified' : 'error'}`}
          role="status"
          data-testid="sign-in-result"
        >
          {action.result ? `✓ Signed in as ${props.address}.` : '✗ The sign-in signature does not match.'}
        </p>
      ) : null}
      <Outcome testId="sign-in" error={action.error} />
    </Card>
  )
}
