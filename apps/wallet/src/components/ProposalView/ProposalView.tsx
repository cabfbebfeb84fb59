import { getChainOptions } from '../../core/chains.js'
import { type ProposalSummary, parseCaipChain, WALLET_METHODS } from '../../core/namespaces.js'
import { t } from '../../i18n/i18n.js'
import { formatChain } from '../../i18n/words.js'

/** Props of {@link ProposalView}. */
export type ProposalViewProps = {
  proposal: ProposalSummary
  /** The wallet's own chain: with the chains it names, the ones it grants. */
  devChainId: number
}

/**
 * What a v2 dapp asks for before the person approves: each chain (named, and marked when the wallet will not grant
 * it) and each method (marked when the wallet does not implement it).
 */
export function ProposalView({ proposal, devChainId }: ProposalViewProps) {
  const supported = new Set(getChainOptions(devChainId))
  const methods = new Set<string>(WALLET_METHODS)
  const chainLabel = (chain: string) => {
    const id = parseCaipChain(chain)
    return id === undefined ? chain : formatChain(id)
  }
  return (
    <div className="proposal" data-testid="proposal">
      <h3>{t('chains_asked')}</h3>
      <ul data-testid="requested-chains">
        {proposal.chains.map((chain) => {
          const id = parseCaipChain(chain)
          const granted = id !== undefined && supported.has(id)
          return (
            <li key={chain} data-testid="requested-chain" data-supported={granted}>
              {chainLabel(chain)}
              {!granted && <span className="muted">{t('not_supported_not_shared')}</span>}
            </li>
          )
        })}
        {proposal.chains.length === 0 && <li className="muted">{t('none_named')}</li>}
      </ul>
      <h3>{t('methods_asked')}</h3>
      <ul data-testid="requested-methods">
        {proposal.methods.map((method) => (
          <li key={method} data-testid="requested-method" data-supported={methods.has(method)}>
            <code>{method}</code>
            {!methods.has(method) && <span className="muted">{t('not_supported')}</span>}
          </li>
        ))}
        {proposal.methods.length === 0 && <li className="muted">{t('none_named')}</li>}
      </ul>
    </div>
  )
}
