import { UserRejectedRequestError } from '@pairlink/provider'
import { UserRejectedRequestError as ViemUserRejected } from 'viem'
import { describe, expect, test } from 'vitest'
import { describeServerError } from './describeServerError.js'
import { ServerError } from './serverApi.js'

const verify = (status: number, text: string) => new ServerError('verify', status, text)

describe('describeServerError', () => {
  test('default: an unknown error reads as describeError says', () => {
    expect(describeServerError(new Error('boom'), 'signIn')).toBe('Something went wrong: boom')
  })

  test('behavior: the wallet refusing the signature, also wrapped by viem', () => {
    const refused = 'You refused the signature in the wallet, so you are not signed in.'
    const rejected = new UserRejectedRequestError('User rejected the request.')
    expect(describeServerError(rejected, 'signIn')).toBe(refused)
    expect(describeServerError(new ViemUserRejected(rejected), 'signIn')).toBe(refused)
  })

  test('behavior: each sign-in refusal of the server, without its wording', () => {
    const expired =
      'The sign-in expired before it reached the server. Press Sign in with wallet to try again.'
    expect(
      describeServerError(verify(401, 'Nonce is unknown, used or expired: ask for a new one'), 'signIn'),
    ).toBe(expired)
    expect(describeServerError(verify(401, 'Message has expired'), 'signIn')).toBe(expired)
    expect(describeServerError(verify(401, 'Signature is not from the message’s address'), 'signIn')).toBe(
      'The signature does not belong to this account, so you are not signed in.',
    )
    expect(
      describeServerError(verify(401, 'Message is for chain 1; this site runs chain 31337'), 'signIn'),
    ).toBe('The sign-in was for another chain than this site runs. Switch the wallet back and try again.')
    expect(describeServerError(verify(401, 'Message is for evil.test, not this site'), 'signIn')).toBe(
      'The sign-in was for another site, so the server refused it. Reload and try again.',
    )
    expect(describeServerError(verify(400, 'Signature must be 0x-hex'), 'signIn')).toMatch(/^The signature/)
    expect(describeServerError(verify(400, 'Message is not an EIP-4361 sign-in message'), 'signIn')).toBe(
      'The server could not read the signed message. Try signing in again.',
    )
  })

  test('args: payments — unreachable server and an ended session', () => {
    expect(describeServerError(new ServerError('payments', 0, 'Failed to fetch'), 'payments')).toBe(
      'The server is unreachable, so the payment history cannot be updated. Retrying…',
    )
    expect(describeServerError(new ServerError('recordPayment', 401, 'Not signed in'), 'payments')).toBe(
      'Your sign-in has ended. Sign in with your wallet again.',
    )
    expect(describeServerError(new ServerError('recordPayment', 400, "Field 'to' …"), 'payments')).toBe(
      'The server could not record this payment.',
    )
  })

  test('error: unreachable, rate-limited, cross-site and failing server', () => {
    expect(describeServerError(new ServerError('nonce', 0, 'Failed to fetch'), 'signIn')).toBe(
      'The server is unreachable. Check your connection and try again.',
    )
    expect(describeServerError(new ServerError('nonce', 429, 'Too many', 7), 'signIn')).toBe(
      'Too many sign-in attempts. Wait 7 seconds and try again.',
    )
    expect(describeServerError(new ServerError('nonce', 429, 'Too many'), 'signIn')).toBe(
      'Too many sign-in attempts. Wait a minute and try again.',
    )
    expect(describeServerError(new ServerError('logout', 403, 'Cross-site request refused'), 'signOut')).toBe(
      'The server refused a request from this page. Reload the page and try again.',
    )
    expect(describeServerError(new ServerError('me', 500, 'Internal error'), 'signIn')).toBe(
      'The server ran into a problem. Try again in a moment.',
    )
  })
})
