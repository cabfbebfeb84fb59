import { redactUrl } from './config.js'

// A scheme, `://`, then everything up to white space or a quote: the whole URL, credentials, path and query.
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi

/**
 * `text` with every URL in it replaced by its {@link redactUrl} form (no credentials, path or query): for error
 * messages and stacks bound for a log line or an answer, which may quote `DATABASE_URL`, `REDIS_URL` or a node URL
 * with its key in the path.
 * @example
 * redactUrls('connect to https://user:pw@node.example/v3/KEY failed') // 'connect to https://node.example/… failed'
 */
export function redactUrls(text: string): string {
  return text.replace(URL_PATTERN, (url) => redactUrl(url))
}
