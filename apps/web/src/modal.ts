// The QR modal's chunk (apps/web/dist/assets/modal-*.js): only what the client's modal adapter calls.
export { close, open, setStatus, showError } from '@pairlink/modal'
