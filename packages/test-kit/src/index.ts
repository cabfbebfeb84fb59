export { MAIL_TYPED_DATA, RECIPIENT } from './fixtures.js'
export { freePort } from './freePort.js'
export { sendRequiredNamespaces } from './requiredNamespaces.js'
export { type WaitForParameters, waitFor } from './waitFor.js'
