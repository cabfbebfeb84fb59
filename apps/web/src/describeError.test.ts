import { ClientClosedError, RequestTimeoutError } from '@pairlink/client'
import { ModalClosedError, RpcError, SessionError, SessionRejectedError, V1_ERRORS } from '@pairlink/protocol'
import {
  BlockNotFoundError,
  ChainDisconnectedError,
  DisconnectedError,
  HttpRequestError,
  UnrecognizedChainError,
  UserRejectedRequestError,
} from '@pairlink/provider'
import {
  createWalletClient,
  custom,
  InsufficientFundsError,
  InvalidAddressError,
  SwitchChainError,
  UserRejectedRequestError as ViemUserRejected,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { describeDisconnect, describeError, describeRefusal } from './describeError.js'

describe('describeError', () => {
  test('default: an unknown error keeps its first line behind a plain prefix', () => {
    expect(describeError(new Error('boom\nstack'))).toBe('Something went wrong: boom')
    expect(describeError('text')).toBe('Something went wrong: text')
  })

  test('behavior: the person closing the QR modal (client and provider texts)', () => {
    const closed = 'You closed the QR window before a wallet connected. Press Connect wallet to try again.'
    expect(describeError(new ModalClosedError(V1_ERRORS.QRCODE_MODAL_USER_CLOSED), 'connect')).toBe(closed)
    // The provider's 4001 `User closed modal` wraps the client's error, whose code tells it from a refusal.
    const provider = new UserRejectedRequestError(V1_ERRORS.PROVIDER_USER_CLOSED_MODAL, {
      cause: new ModalClosedError(V1_ERRORS.QRCODE_MODAL_USER_CLOSED),
    })
    expect(describeError(provider, 'connect')).toBe(closed)
    expect(describeError(new ViemUserRejected(provider), 'connect')).toBe(closed)
  })

  test('behavior: codes decide, not texts or class names (the text-based dispatch read both as a closed modal)', () => {
    // A wallet whose own refusal text happens to be the provider's modal text: a refusal (code 4001, no cause).
    expect(describeError(new RpcError(V1_ERRORS.PROVIDER_USER_CLOSED_MODAL, { code: 4001 }))).toBe(
      'The wallet rejected the request.',
    )
    // An error that only borrows the class name, as a stranger's error may: no code, so nothing special.
    const named = Object.assign(new Error('closed'), { name: 'ModalClosedError' })
    expect(describeError(named, 'connect')).toBe('Something went wrong: closed')
  })

  test('behavior: a node -32603 is not an outage; an HTTP failure of the provider is, wrapped or not', () => {
    expect(describeError(new RpcError('Internal error', { code: -32603 }), 'read')).toBe(
      'The RPC node failed to answer: Internal error. Retrying…',
    )
    // The server's /rpc proxy answers a down node this way: one sentence, no message nested in another.
    expect(describeError(new RpcError('RPC node unreachable', { code: -32603 }), 'read')).toBe(
      'The RPC node failed to answer: RPC node unreachable. Retrying…',
    )
    expect(describeError(new RpcError('Internal error', { code: -32603 }), 'request')).toBe(
      'Something went wrong: Internal error',
    )
    const unreachable = new HttpRequestError('HTTP request failed (method: eth_chainId)', {
      details: 'network',
    })
    expect(describeError(new Error('wrapped', { cause: unreachable }), 'request')).toBe(
      'The RPC node is unreachable. Retrying…',
    )
    expect(describeError(new BlockNotFoundError(V1_ERRORS.COULD_NOT_FIND_BLOCK, 'empty'), 'read')).toBe(
      'The RPC node has not produced the latest block yet. Retrying…',
    )
  })

  test('behavior: the wallet rejecting the session', () => {
    expect(describeError(new SessionRejectedError('Session Rejected'), 'connect')).toBe(
      'The wallet rejected the connection.',
    )
    expect(describeError(new UserRejectedRequestError('Session Rejected'), 'connect')).toBe(
      'The wallet rejected the connection.',
    )
    expect(describeError(new Error('connect failed', { cause: new SessionRejectedError('No') }))).toBe(
      'The wallet rejected the connection.',
    )
  })

  test('behavior: the wallet rejecting a request, also wrapped by viem', () => {
    const rejected = new UserRejectedRequestError('User rejected')
    expect(describeError(rejected)).toBe('The wallet rejected the request.')
    expect(describeError(new ViemUserRejected(rejected))).toBe('The wallet rejected the request.')
    expect(describeError(new RpcError('no', { code: 4001 }), 'payment')).toBe(
      'The wallet rejected the request.',
    )
  })

  test('args: switchChain — a refusal or an unknown chain reads as the wallet staying put', () => {
    expect(describeError(new RpcError('no', { code: 4001 }), 'switchChain')).toMatch(/refused to switch/)
    expect(describeError(new RpcError('unknown chain', { code: 4902 }), 'switchChain')).toMatch(
      /does not know this chain/,
    )
  })

  test('args: switchChain — over v2, a chain the wallet did not approve says how to get it', () => {
    const error = new UnrecognizedChainError('Chain 10 (eip155:10) is not in this session', {
      approvedChains: ['eip155:31337'],
    })
    // viem wraps the provider's error; the code and data are found down the cause chain.
    const wrapped = new Error('Switch chain failed', { cause: error })
    expect(describeError(wrapped, 'switchChain')).toBe(
      'The wallet did not approve this chain when it connected, so the app stays on the current one. To use it, disconnect and connect again, approving that chain in the wallet.',
    )
  })

  test('args: switchChain — wagmi’s connector wraps every failed switch in a 4902; the code beneath it decides', () => {
    // viem's SwitchChainError, as Pairlink's connector (like wagmi's own) throws it for anything but a refusal.
    const wrapped = (cause: Error) => describeError(new SwitchChainError(cause), 'switchChain')
    expect(wrapped(new RpcError('Unrecognized chain', { code: 4902 }))).toBe(
      'The wallet does not know this chain, so it stayed where it was.',
    )
    expect(wrapped(new ChainDisconnectedError('No RPC Url available for chainId: 1'))).toBe(
      'The wallet refused to switch to this chain. It stays on the current one.',
    )
    expect(wrapped(new DisconnectedError(V1_ERRORS.SESSION_DISCONNECTED))).toBe(
      'The wallet is disconnected. Connect it again to continue.',
    )
    expect(wrapped(new RequestTimeoutError('wallet_switchEthereumChain', 1000))).toMatch(
      /did not answer in time/,
    )
    expect(
      wrapped(
        new UnrecognizedChainError('Chain 1 is not in this session', { approvedChains: ['eip155:31337'] }),
      ),
    ).toMatch(/^The wallet did not approve this chain when it connected/)
    // A refusal comes as viem's UserRejectedRequestError over the wallet's 4001.
    expect(
      describeError(new ViemUserRejected(new RpcError('User rejected', { code: 4001 })), 'switchChain'),
    ).toBe('The wallet refused to switch to this chain. It stays on the current one.')
  })

  test('behavior: the v2 relay does not answer or drops → a plain message', () => {
    for (const code of ['ERR_RELAY_TIMEOUT', 'ERR_RELAY_CLOSED']) {
      const error = Object.assign(new Error('Relay did not answer wc_proposeSession within 15000 ms'), {
        code,
      })
      expect(describeError(error, 'connect')).toBe(
        "Can't reach the relay right now. Check your connection and try again.",
      )
    }
  })

  test('behavior: the relay refused the site (ERR_RELAY_REFUSED) — what the operator must fix, by kind, however wrapped', () => {
    // The v2 client's RelayRefusedError as the contract describes it; recognised by its code, never its class.
    const refused = (kind: string) =>
      Object.assign(new Error('Project not found'), { code: 'ERR_RELAY_REFUSED', closeCode: 3000, kind })
    const project =
      "WalletConnect did not accept this site's project id. The site's operator must set WALLETCONNECT_PROJECT_ID to a project id from dashboard.reown.com."
    expect(describeError(refused('project-missing'), 'connect')).toBe(project)
    expect(describeError(refused('project-unknown'), 'connect')).toBe(project)
    // The provider's connect rejects with it as the cause; a request's failure may be wrapped by viem too.
    const wrapped = new Error('wrapped', {
      cause: new Error('provider', { cause: refused('project-unknown') }),
    })
    expect(describeError(wrapped, 'request')).toBe(project)
    expect(describeError(refused('origin'), 'connect')).toBe(
      "WalletConnect's relay does not accept this site's address. The operator must add it to the project's allowed domains at dashboard.reown.com.",
    )
    expect(describeRefusal('origin', 'https://dapp.example')).toBe(
      "WalletConnect's relay does not accept this site's address (https://dapp.example). The operator must add it to the project's allowed domains at dashboard.reown.com.",
    )
    expect(describeError(refused('other'), 'connect')).toMatch(/^The relay refused this site/)
    // Not the reconnecting relay's message: nothing will get better by itself.
    expect(describeError(refused('other'), 'connect')).not.toMatch(/try again|Retrying/i)
  })

  test('behavior: no session', () => {
    const text = 'The wallet is disconnected. Connect it again to continue.'
    expect(describeError(new DisconnectedError(V1_ERRORS.SESSION_DISCONNECTED))).toBe(text)
    expect(describeError(new SessionError(V1_ERRORS.SESSION_DISCONNECTED))).toBe(text)
  })

  test('behavior: time-out, RPC node, funds', () => {
    expect(describeError(new RequestTimeoutError('personal_sign', 1000))).toMatch(/did not answer in time/)
    expect(
      describeError(
        new HttpRequestError('HTTP request eth_blockNumber failed', { details: 'fetch failed' }),
        'read',
      ),
    ).toBe('The RPC node is unreachable. Retrying…')
    expect(describeError(new InsufficientFundsError(), 'payment')).toMatch(/Not enough ETH/)
    expect(describeError(new InvalidAddressError({ address: '0x1' }), 'payment')).toBe(
      'That is not a valid address.',
    )
    expect(describeError(new ClientClosedError())).toMatch(/connection was closed/)
  })

  test('behavior: a cause cycle does not hang', () => {
    const error = new Error('loop') as Error & { cause: unknown }
    error.cause = error
    expect(describeError(error)).toBe('Something went wrong: loop')
  })
})

describe('describeDisconnect', () => {
  test('args: by the person here or in another tab, or by the wallet', () => {
    expect(describeDisconnect('here')).toBe('You disconnected the wallet.')
    expect(describeDisconnect('tab')).toBe('You disconnected the wallet in another tab.')
    expect(describeDisconnect('wallet')).toMatch(/^The wallet disconnected\./)
  })
})

describe('describeError: a payment the wallet could not send', () => {
  const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
  /** The error viem's sendTransaction throws when the wallet answers `eth_sendTransaction` with `error`. */
  const sendThrough = async (error: RpcError) => {
    const wallet = createWalletClient({
      transport: custom({
        request: async () => {
          throw error
        },
      }),
    })
    return wallet
      .sendTransaction({ account: address, to: address, value: 1n, chain: null })
      .catch((e: unknown) => e)
  }

  test('error: the wallet’s internal error is the wallet’s failure in its words, not “Something went wrong”', async () => {
    const thrown = await sendThrough(new RpcError('Nonce too low.', { code: -32603 }))
    expect(describeError(thrown, 'payment')).toBe('The wallet could not send the payment: Nonce too low.')
  })

  test('error: insufficient funds, named by the node’s shared wording or by the wallet in data.name', async () => {
    const node = await sendThrough(
      new RpcError('insufficient funds for gas * price + value: have 1 want 2', { code: -32000 }),
    )
    expect(describeError(node, 'payment')).toBe('Not enough ETH to pay this amount plus the network fee.')
    const named = await sendThrough(
      new RpcError('The total cost exceeds the balance', {
        code: -32603,
        data: { name: 'InsufficientFundsError' },
      }),
    )
    expect(describeError(named, 'payment')).toBe('Not enough ETH to pay this amount plus the network fee.')
  })

  test('error: a wallet on another chain', async () => {
    const named = await sendThrough(
      new RpcError('chain mismatch', { code: -32603, data: { name: 'ChainMismatchError' } }),
    )
    expect(describeError(named, 'payment')).toBe('The wallet is on another chain than this request needs.')
    const provider = await sendThrough(new RpcError('wrong chain', { code: 4901 }))
    expect(describeError(provider, 'payment')).toBe('The wallet is on another chain than this request needs.')
  })
})
