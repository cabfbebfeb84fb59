import { useState } from 'react'
import { useSwitchChain } from 'wagmi'
import { formatChain, listChains } from '../../format.js'
import { useAction } from '../../hooks/useAction.js'
import { useWalletPrompt } from '../../hooks/useWalletPrompt.js'
import { type MessageKey, t } from '../../i18n/i18n.js'
import { CancelButton, Card, Outcome } from '../Card/Card.js'
import { RequestLifeLine } from '../RequestLife/RequestLife.js'

/** Props of {@link SwitchChain}. */
export type SwitchChainProps = {
  chainId: number
  appChainId: number
  /** The session's WalletConnect generation: v1 asks the wallet, v2 switches within the session. @default 1 */
  protocol?: 1 | 2 | undefined
}

/**
 * What the card says, per protocol. v1 asks the wallet, which holds one chain and may refuse. v2 moves the session
 * among the chains the wallet approved when it connected, without asking it (each request names its chain, so the
 * wallet's own page stays where it was); another chain needs a new connection (the provider's 4902 says so).
 */
const TEXTS = {
  1: { description: 'switch_v1_description', busy: 'confirm_in_wallet', switched: 'switch_v1_done' },
  2: { description: 'switch_v2_description', busy: 'switch_v2_busy', switched: 'switch_v2_done' },
} as const satisfies Record<1 | 2, Record<string, MessageKey>>

/**
 * Moves the session to another chain (`wallet_switchEthereumChain`, which wagmi's `switchChain` sends through
 * Pairlink's connector to the app's provider): over v1 the wallet is asked and may refuse; over v2 the provider
 * switches among the session's chains itself.
 */
export function SwitchChain({ chainId, appChainId, protocol = 1 }: SwitchChainProps) {
  const texts = TEXTS[protocol]
  const choices = listChains(appChainId)
  const [target, setTarget] = useState(() => choices.find((id) => id !== chainId) ?? appChainId)
  // A result holds only for the chain it was about: a refusal while the session stayed on `askedFrom`, a success
  // while the session is still on the chain it moved to.
  const [askedFrom, setAskedFrom] = useState(chainId)
  const { switchChainAsync } = useSwitchChain()
  const prompt = useWalletPrompt()
  // v1 asks the wallet (named, and brought forward on a phone); v2 switches here without asking it.
  const busy = protocol === 1 ? prompt.waiting : t(texts.busy)
  const change = useAction(async () => {
    await switchChainAsync({ chainId: target })
    return target
  }, 'switchChain')
  return (
    <Card title={t('switch_title')} description={t(texts.description)} testId="switch-chain">
      <form
        onSubmit={(event) => {
          event.preventDefault()
          setAskedFrom(chainId)
          if (protocol === 1) prompt.focus()
          void change.run()
        }}
      >
        <label htmlFor="switch-chain-select">{t('chain')}</label>
        <select
          id="switch-chain-select"
          data-testid="switch-chain-select"
          value={target}
          onChange={(event) => setTarget(Number(event.target.value))}
        >
          {choices.map((id) => (
            <option key={id} value={id}>
              {id === chainId ? t('switch_current', { chain: formatChain(id) }) : formatChain(id)}
            </option>
          ))}
        </select>
        <div className="button-row">
          <button
            type="submit"
            data-testid="switch-chain-button"
            disabled={change.busy || target === chainId}
          >
            {change.busy ? busy : t('switch_button')}
          </button>
          {change.busy ? <CancelButton testId="switch-chain" onCancel={change.cancel} /> : null}
        </div>
        {/* v2 switches here, without a request to the wallet: there is no request's life to show. */}
        {protocol === 1 ? (
          <RequestLifeLine
            testId="switch-chain"
            busy={change.busy}
            methods={['wallet_switchEthereumChain']}
          />
        ) : null}
      </form>
      {change.result !== undefined && change.result === chainId ? (
        <p className="outcome verified" role="status" data-testid="switch-chain-result">
          {t(texts.switched, { chain: formatChain(change.result) })}
        </p>
      ) : null}
      <Outcome testId="switch-chain" error={chainId === askedFrom ? change.error : undefined} />
    </Card>
  )
}
