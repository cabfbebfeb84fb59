// `@pairlink/modal/languages`: which languages Pairlink speaks and how one is picked, without the modal — for apps
// that speak the modal's languages (the web app, the wallet page) and must agree with it.
export {
  formatMessage,
  getDirection,
  LANGUAGES,
  type Language,
  matchLanguage,
  resolveLanguage,
  toLanguage,
} from './locales/languages.js'
