/**
 * The web app's texts in English: the table every other language's is typed by (`Messages = typeof en`).
 *
 * To add a text: add its key here (`{name}` for what is filled in), then the same key to de, es, fa, fr, ja, ko,
 * pt and zh — `node scripts/typecheck.mjs` names each table that lacks it, and `messages.test.ts` checks that every
 * table has every key with the same placeholders. Product names (Pairlink, WalletConnect, wallet names) and byte-exact
 * protocol texts stay as they are.
 */
export const en = {
  // App, ConnectedView
  loading: 'Loading…',
  connect_title: 'Connect your wallet',
  wallet_hint:
    'No wallet? Open the {link} in another tab or on your phone, then paste the link from the QR window into it.',
  wallet_hint_link: 'Pairlink test wallet',
  opens_new_tab: '(opens in a new tab)',
  view_error: 'The account view could not be loaded. Check your connection and reload the page.',
  config_error: "Cannot load the app's settings from the server ({reason}). Reload to retry.",
  // ConnectButton, ConnectIntro, ProtocolChoice
  connect_wallet: 'Connect wallet',
  waiting_for_wallet: 'Waiting for the wallet…',
  intro_walletconnect:
    "Scan the QR code with any WalletConnect wallet (MetaMask, Rainbow, Trust, Ledger Live and others), or on a phone pick your wallet from the list; a wallet installed in this browser is offered there too. The connection is end-to-end encrypted; WalletConnect's relay carries it without reading it.",
  intro_pairlink:
    "This server pairs through its own relay: Pairlink Wallet and wallets set up for this relay connect by QR code, and a wallet installed in this browser is offered there too. Phone wallets such as MetaMask or Rainbow listen on WalletConnect's network: they can connect once the site's operator sets a WalletConnect project id (WALLETCONNECT_PROJECT_ID).",
  intro_bridge:
    "Scan the QR code with a WalletConnect v1 wallet, or use a wallet installed in this browser, offered there too. The connection is end-to-end encrypted through this server's bridge.",
  intro_one_click:
    'Approving the connection in your wallet also signs you in to this site: one approval, no second step. A wallet that cannot sign in while connecting just connects; you then sign in from the account page.',
  connect_with: 'Connect with',
  reaches_any: 'any WalletConnect wallet',
  reaches_v1: 'v1 wallets, through this server’s bridge',
  reaches_pairlink: 'Pairlink Wallet and wallets set up for this server’s relay',
  // AccountPanel
  connected_to: 'Connected to {wallet}',
  unnamed_wallet: 'Unnamed wallet',
  browser_wallet: 'Browser wallet',
  disconnect: 'Disconnect',
  copy_address: 'Copy address',
  balance: 'Balance',
  chain: 'Chain',
  latest_block: 'Latest block',
  not_read_here: 'Not read on this chain',
  waiting: 'Waiting…',
  relay: 'Relay',
  bridge: 'Bridge',
  socket_open: 'Connected',
  socket_connecting: 'Reconnecting…',
  socket_closed: 'Offline',
  off_chain_v2:
    'This session is on {chain}, but this app reads {app}. Switch chain back to {app} to see its balance and send payments here.',
  off_chain_v1:
    'The wallet is on {chain}, but this app reads {app}. Switch the wallet back to {app} to see its balance and send payments here.',
  chain_unknown: 'Chain {id}',
  dev_chain: 'Anvil dev chain',
  // Cards
  cancel: 'Cancel',
  copy: 'Copy',
  copied: 'Copied',
  copy_failed: 'Copy failed',
  confirm_in: 'Confirm in {wallet}…',
  confirm_in_wallet: 'Confirm in your wallet…',
  stopped_waiting:
    'You stopped waiting for the wallet. If it still shows the request, reject it there; an answer now is ignored here.',
  stopped_waiting_payment:
    'You stopped waiting for the wallet. If it still shows the payment, reject it there: approved now, it is still sent.',
  sign_in_title: 'Sign in with Ethereum',
  sign_in_description: 'Prove you own this account (EIP-4361) to keep your records on this server.',
  sign_in_checking: 'Checking whether you are signed in…',
  sign_in_signed_out: 'Not signed in.',
  sign_in_signing: 'Confirm the sign-in in your wallet…',
  signed_in_as: '✓ Signed in as {address}',
  sign_in_button: 'Sign in with wallet',
  sign_out: 'Sign out',
  sign_message_title: 'Sign a message',
  sign_message_description: 'The wallet signs a text; anyone can check who signed it.',
  sign_message_default: 'Hello from Pairlink!',
  message: 'Message',
  sign_message_button: 'Sign message',
  signature_verified: '✓ Signature verified: signed by this account.',
  signature_mismatch: '✗ The signature does not match this account.',
  copy_signature: 'Copy signature',
  typed_title: 'Sign typed data',
  typed_description: 'Structured data (EIP-712 v4) the wallet can show field by field.',
  typed_button: 'Sign typed data',
  switch_title: 'Switch chain',
  switch_button: 'Switch chain',
  switch_current: '{chain} — current',
  switch_v1_description: 'The wallet decides; it may refuse chains it does not know.',
  switch_v1_done: 'The wallet switched to {chain}.',
  switch_v2_description:
    'Switches among the chains the wallet approved when it connected, without asking it. For another chain, disconnect and connect again to approve it.',
  switch_v2_busy: 'Switching…',
  switch_v2_done: 'This session is now on {chain}; each request tells the wallet its chain.',
  // SendPayment
  payment_title: 'Send a payment',
  payment_description: 'The wallet signs and broadcasts the transaction.',
  recipient: 'Recipient',
  amount: 'Amount (ETH)',
  send_payment: 'Send payment',
  transaction: 'Transaction',
  recipient_balance: 'Recipient balance:',
  record_signed_out: 'Sign in to keep a record of your payments.',
  record_saving: 'Saving the payment to your history…',
  record_saved:
    'Saved to your payment history: the server follows it to confirmation, even if you close this tab.',
  record_failed: '{reason} The payment itself was sent.',
  invalid_recipient: 'Enter a valid recipient address (0x followed by 40 hex digits).',
  invalid_amount: 'Enter an amount in ETH, such as 0.01.',
  amount_zero: 'Enter an amount above zero.',
  insufficient_funds: 'Not enough ETH to pay this amount plus the network fee.',
  pay_off_chain_v2:
    'This session is on another chain ({chain}): payments here go on {app}. Switch chain back to {app} first.',
  pay_off_chain_v1:
    'The wallet is on another chain ({chain}): payments here go on {app}. Switch the wallet back first.',
  payment_signing: 'Waiting for the wallet to approve the payment…',
  payment_pending: 'Pending: sent, waiting to be included in a block…',
  payment_reverted: 'Failed: the payment was reverted in block {block}',
  payment_included: 'In block {block} · {confirmations}',
  confirmations_one: '{count} confirmation',
  confirmations_other: '{count} confirmations',
  // PaymentHistory
  history_title: 'Payment history',
  history_description: 'The server follows each payment to confirmation, even after you close this tab.',
  history_empty: 'No payments yet. Payments you send while signed in show up here.',
  history_signed_out: 'Sign in with Ethereum to keep a record of your payments here.',
  history_to: 'to {address}',
  in_block: 'block {block}',
  status_pending: 'Pending: waiting to be included in a block',
  status_included: 'Included',
  status_confirmed: 'Confirmed',
  status_failed: 'Failed{block}: the payment was reverted',
  status_reorged: 'Reorganised away: its block left the chain; waiting to be included again',
  status_dropped: 'Dropped: not included in a block in time',
  // StatusBanner, notices
  bridge_unreachable:
    'The bridge is unreachable. Retrying… Messages to and from the wallet wait until it is back.',
  relay_unreachable:
    'The relay is unreachable. Retrying… Messages to and from the wallet wait until it is back.',
  rpc_rewind:
    'The RPC node went back from block #{from} to #{to}: it was restarted or its chain was reset. Balances and blocks now follow its new chain.',
  dismiss: 'Dismiss message',
  welcome_back: 'Welcome back: your session with {wallet} was restored.',
  the_wallet: 'the wallet',
  connected_notice: 'Connected to {wallet}.',
  connected_signing: 'Connected to {wallet}. Signing in…',
  connected_signed_in: 'Connected to {wallet} and signed in as {address}.',
  connected_not_signed_in: 'Connected to {wallet}, but not signed in: {reason}',
  account_switched:
    'The wallet switched to another account, so you were signed out. Sign in again to continue as {address}.',
  signed_in_notice: 'Signed in as {address}.',
  signed_out_notice: 'You signed out.',
  sign_in_ended: 'Your sign-in has ended. Sign in with your wallet again.',
  disconnected_here: 'You disconnected the wallet.',
  disconnected_tab: 'You disconnected the wallet in another tab.',
  disconnected_wallet: 'The wallet disconnected. Press Connect wallet to pair again.',
  // describeError
  error_modal_closed:
    'You closed the QR window before a wallet connected. Press Connect wallet to try again.',
  error_connection_rejected: 'The wallet rejected the connection.',
  error_timeout: 'The wallet did not answer in time. Check the wallet and try again.',
  error_chain_not_approved:
    'The wallet did not approve this chain when it connected, so the app stays on the current one. To use it, disconnect and connect again, approving that chain in the wallet.',
  error_chain_unknown: 'The wallet does not know this chain, so it stayed where it was.',
  error_switch_refused: 'The wallet refused to switch to this chain. It stays on the current one.',
  error_request_rejected: 'The wallet rejected the request.',
  error_disconnected: 'The wallet is disconnected. Connect it again to continue.',
  error_wrong_chain: 'The wallet is on another chain than this request needs.',
  error_unauthorized: 'The wallet has not shared this account with the app.',
  error_unsupported: 'The wallet does not support this request.',
  error_invalid_address: 'That is not a valid address.',
  error_rpc_unreachable: 'The RPC node is unreachable. Retrying…',
  error_block_not_found: 'The RPC node has not produced the latest block yet. Retrying…',
  error_client_closed: 'The connection was closed. Reload the page to continue.',
  error_relay_unreachable: "Can't reach the relay right now. Check your connection and try again.",
  error_rpc_failed: 'The RPC node failed to answer: {reason}. Retrying…',
  error_payment_failed: 'The wallet could not send the payment: {reason}.',
  error_other: 'Something went wrong: {reason}',
  refused_project:
    "WalletConnect did not accept this site's project id. The site's operator must set WALLETCONNECT_PROJECT_ID to a project id from dashboard.reown.com.",
  refused_origin:
    "WalletConnect's relay does not accept this site's address{origin}. The operator must add it to the project's allowed domains at dashboard.reown.com.",
  refused_other:
    "The relay refused this site, so no wallet can connect through it. The site's operator must check its WalletConnect settings (project id and allowed domains at dashboard.reown.com).",
  // describeServerError
  server_signature_refused: 'You refused the signature in the wallet, so you are not signed in.',
  server_unreachable_payments:
    'The server is unreachable, so the payment history cannot be updated. Retrying…',
  server_unreachable: 'The server is unreachable. Check your connection and try again.',
  server_too_many: 'Too many sign-in attempts. Wait {wait} and try again.',
  seconds_one: '{count} second',
  seconds_other: '{count} seconds',
  a_minute: 'a minute',
  server_forbidden: 'The server refused a request from this page. Reload the page and try again.',
  server_failed: 'The server ran into a problem. Try again in a moment.',
  server_nonce_expired:
    'The sign-in expired before it reached the server. Press Sign in with wallet to try again.',
  server_bad_signature: 'The signature does not belong to this account, so you are not signed in.',
  server_wrong_chain:
    'The sign-in was for another chain than this site runs. Switch the wallet back and try again.',
  server_wrong_site: 'The sign-in was for another site, so the server refused it. Reload and try again.',
  server_unreadable: 'The server could not read the signed message. Try signing in again.',
  server_record_failed: 'The server could not record this payment.',
  server_refused: 'The server refused the request. Reload the page and try again.',
  life_sent_bridge: 'Sent to the bridge. Waiting for your wallet’s answer.',
  life_sent_relay: 'Sent. Waiting for the relay to confirm it has your request…',
  life_relayed: 'The relay has your request. Waiting for your wallet’s answer.',
  life_expired: 'Expired: your wallet did not answer in time. You can try again.',
  life_expires_in: 'Expires in {time}',
}

/** The web app's message table: English's keys, each language's texts. */
export type Messages = typeof en
