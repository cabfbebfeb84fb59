import type { DecodedField, DecodedRequest } from '../../core/decodeRequest.js'
import { t } from '../../i18n/i18n.js'
import { formatChain } from '../../i18n/words.js'
import { Address } from '../Address/Address.js'

/** A decoded call request, laid out for reading before approving. Pure: no actions. */
export function DecodedRequestView({ decoded }: { decoded: DecodedRequest }) {
  switch (decoded.kind) {
    case 'message':
      return (
        <div className="decoded">
          {decoded.address && (
            <Row label={t('field_account')} value={decoded.address} testId="request-address" />
          )}
          {decoded.text !== undefined ? (
            <>
              <h3>{t('message')}</h3>
              <pre className="message" data-testid="message-text">
                {decoded.text}
              </pre>
            </>
          ) : (
            <p className="muted small">{t('raw_bytes')}</p>
          )}
          <details open={decoded.text === undefined}>
            <summary>Hex</summary>
            <pre className="hex" data-testid="message-hex">
              {decoded.hex}
            </pre>
          </details>
        </div>
      )
    case 'typedData':
      return (
        <div className="decoded">
          {decoded.address && (
            <Row label={t('field_account')} value={decoded.address} testId="request-address" />
          )}
          <h3>{t('domain')}</h3>
          <Fields fields={decoded.domain} testId="typed-data-domain" />
          <h3>
            {t('message')} <span className="muted">({decoded.primaryType})</span>
          </h3>
          <Fields fields={decoded.fields} testId="typed-data-field" />
        </div>
      )
    case 'transaction':
      return (
        <div className="decoded">
          {decoded.from && <Row label={t('from')} value={decoded.from} testId="tx-from" />}
          <Row label={t('to')} value={decoded.to ?? t('new_contract')} testId="tx-to" />
          <Row label={t('value')} value={`${decoded.value} ETH`} testId="tx-value" />
          {decoded.gas && <Row label={t('gas_limit')} value={decoded.gas} testId="tx-gas" />}
          {decoded.fees && <Row label={t('fee_per_gas')} value={decoded.fees} testId="tx-fees" />}
          {decoded.nonce && <Row label={t('nonce')} value={decoded.nonce} testId="tx-nonce" />}
          <h3>{t('data')}</h3>
          <pre className="hex" data-testid="tx-data">
            {decoded.data === '0x' ? t('no_data') : decoded.data}
          </pre>
          <p className="muted small">{t(decoded.broadcast ? 'tx_broadcast' : 'tx_sign_only')}</p>
        </div>
      )
    case 'switchChain':
    case 'addChain':
      return (
        <div className="decoded">
          <Row
            label={t('chain')}
            value={
              decoded.kind === 'switchChain'
                ? formatChain(decoded.chainId)
                : `${decoded.chainName} (${decoded.chainId})`
            }
            testId="request-chain"
          />
          {decoded.kind === 'addChain' && decoded.rpcUrls.length > 0 && (
            <Row label="RPC" value={decoded.rpcUrls.join(', ')} testId="request-rpc" />
          )}
        </div>
      )
    case 'info':
      return <p className="muted">{t('info_asks', { method: decoded.method })}</p>
    case 'unsupported':
      return (
        <div className="decoded">
          <p className="error-text" data-testid="unsupported-reason">
            {decoded.reason}
          </p>
          <pre className="hex">{decoded.params}</pre>
        </div>
      )
  }
}

/** A value as read: an address in its two unbreakable halves (never a lone character on a line), else as is. */
function Value({ value }: { value: string }) {
  return /^0x[0-9a-fA-F]{40}$/.test(value) ? <Address address={value} /> : value
}

function Row({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="row">
      <span className="muted">{label}</span>
      <span className="value" data-testid={testId}>
        <Value value={value} />
      </span>
    </div>
  )
}

function Fields({ fields, testId }: { fields: DecodedField[]; testId: string }) {
  return (
    <ul className="fields">
      {fields.map((field, index) => (
        <li
          // Field names repeat across nested structs; their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
          key={index}
          data-testid={testId}
          style={{ paddingLeft: `${field.depth}rem` }}
        >
          <span className="field-name">{field.name}</span> <span className="muted small">{field.type}</span>
          {field.value && (
            <span className="value">
              <Value value={field.value} />
            </span>
          )}
        </li>
      ))}
    </ul>
  )
}
