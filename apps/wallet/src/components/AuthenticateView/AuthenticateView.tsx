import type { ClientMeta } from '@pairlink/protocol'
import { parseCaipChain } from '../../core/namespaces.js'
import type { AuthRequestSummary } from '../../core/summarizeAuthRequest.js'
import { fill } from '../../i18n/fill.js'
import { t } from '../../i18n/i18n.js'
import { describeMethod, formatChain } from '../../i18n/words.js'
import { Address } from '../Address/Address.js'
import { AnswerActions } from '../AnswerActions/AnswerActions.js'
import { PeerInfo } from '../PeerInfo/PeerInfo.js'

/** Props of {@link AuthenticateView}. */
export type AuthenticateViewProps = {
  peer: ClientMeta | null
  request: AuthRequestSummary
  /** The account that signs. */
  address: string
  onApprove(): Promise<void> | void
  onReject(): Promise<void> | void
}

/**
 * A dapp asks to connect and sign in with one approval (WalletConnect v2 one-click auth): who asks, the message as
 * it will be signed, what the dapp may then ask for (its ReCap in words), the chains, Approve or Reject. Buttons
 * lock while the answer is under way.
 */
export function AuthenticateView({ peer, request, address, onApprove, onReject }: AuthenticateViewProps) {
  const name = peer?.name || t('this_dapp')
  const granted = new Set(request.grantedMethods)
  const granting = new Set(request.evmChains)
  const [first] = request.messages
  return (
    <section className="card screen" data-testid="auth-request" aria-labelledby="auth-request-heading">
      <h2 id="auth-request-heading">{t('auth_title')}</h2>
      <PeerInfo peer={peer} />
      <p data-testid="auth-summary">{fill(t('auth_asks'), { dapp: <strong>{name}</strong> })}</p>
      <p className="muted small">
        {fill(
          request.messages.length > 1
            ? t('auth_shares_many', { count: request.messages.length })
            : t('auth_shares'),
          {
            address: (
              <span className="address" data-testid="auth-address">
                <Address address={address} />
              </span>
            ),
          },
        )}
      </p>
      {first && (
        <>
          <h3 id="auth-message-heading" className="small">
            {t('message_to_sign')}
          </h3>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes focus so a keyboard can scroll it */}
          <section className="siwe-region" aria-labelledby="auth-message-heading" tabIndex={0}>
            {/* Exactly the text signed, line for line. */}
            <pre className="siwe" data-testid="auth-message">
              {first.text}
            </pre>
          </section>
        </>
      )}
      <div className="proposal" data-testid="auth-recaps">
        <h3>{t('auth_may_ask', { dapp: name })}</h3>
        <ul>
          {request.methods.map((method) => (
            <li key={method} data-testid="auth-recap" data-granted={granted.has(method)}>
              {describeMethod(method)}
              {!granted.has(method) && <span className="muted">{t('not_granted')}</span>}
            </li>
          ))}
          {request.methods.length === 0 && <li className="muted">{t('sign_in_only')}</li>}
        </ul>
        <h3>{t('chains')}</h3>
        <ul>
          {request.chains.map((chain) => {
            const id = parseCaipChain(chain)
            const supported = id !== undefined && granting.has(id)
            return (
              <li key={chain} data-testid="auth-chain" data-supported={supported}>
                {id === undefined ? chain : formatChain(id)}
                {!supported && <span className="muted">{t('not_signed')}</span>}
              </li>
            )
          })}
        </ul>
      </div>
      {request.refused && (
        <p className="status status-error" role="alert" data-testid="auth-refusal">
          {t('cannot_approve', { reason: request.refused })}
        </p>
      )}
      <AnswerActions
        name="auth"
        approveLabel={t('approve_sign_in')}
        approveDisabled={request.refused !== undefined}
        onApprove={onApprove}
        onReject={onReject}
      />
    </section>
  )
}
