export { QrModal, type QrModalProps } from './QrModal/QrModal.js'
