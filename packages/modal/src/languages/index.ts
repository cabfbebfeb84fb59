// `@pairlink/modal/languages`: which languages Pairlink speaks, how one is picked from the browser's, and the message
// tables of the apps that speak the modal's languages (the web app, the wallet page) — without the modal.
export {
  createTranslator,
  formatMessage,
  getDirection,
  LANGUAGES,
  type Language,
  type MessageTable,
  type MessageValues,
  matchLanguage,
  resolveLanguage,
  type Translator,
  toLanguage,
} from '../locales/languages.js'
