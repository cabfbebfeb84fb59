import { useState } from 'react'
import type { WalletClient } from 'viem'
import { formatChain, listChains } from '../../format.js'
import { useAction } from '../../hooks/useAction.js'
import { CancelButton, Card, Outcome } from '../Card/Card.js'

/** Props of {@link SwitchChain}. */
export type SwitchChainProps = { walletClient: WalletClient; chainId: number; appChainId: number }

/** Asks the wallet to move to another chain (`wallet_switchEthereumChain`); the wallet may refuse. */
export function SwitchChain({ walletClient, chainId, appChainId }: SwitchChainProps) {
  const choices = listChains(appChainId)
  const [target, setTarget] = useState(() => choices.find((id) => id !== chainId) ?? appChainId)
  // A result holds only for the chain it was about: a refusal while the wallet stayed on `askedFrom`, a success
  // while the wallet is still on the chain it moved to.
  const [askedFrom, setAskedFrom] = useState(chainId)
  const change = useAction(async () => {
    await walletClient.switchChain({ id: target })
    return target
  }, 'switchChain')
  return (
    <Card
      title="Switch chain"
      description="The wallet decides; it may refuse chains it does not know."
      testId="switch-chain"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault()
          setAskedFrom(chainId)
          void change.run()
        }}
      >
        <label htmlFor="switch-chain-select">Chain</label>
        <select
          id="switch-chain-select"
          data-testid="switch-chain-select"
          value={target}
          onChange={(event) => setTarget(Number(event.target.value))}
        >
          {choices.map((id) => (
            <option key={id} value={id}>
              {formatChain(id)}
              {id === chainId ? ' — current' : ''}
            </option>
          ))}
        </select>
        <div className="button-row">
          <button
            type="submit"
            data-testid="switch-chain-button"
            disabled={change.busy || target === chainId}
          >
            {change.busy ? 'Confirm in your wallet…' : 'Switch chain'}
          </button>
          {change.busy ? <CancelButton testId="switch-chain" onCancel={change.cancel} /> : null}
        </div>
      </form>
      {change.result !== undefined && change.result === chainId ? (
        <p className="outcome verified" role="status" data-testid="switch-chain-result">
          The wallet switched to {formatChain(change.result)}.
        </p>
      ) : null}
      <Outcome testId="switch-chain" error={chainId === askedFrom ? change.error : undefined} />
    </Card>
  )
}
