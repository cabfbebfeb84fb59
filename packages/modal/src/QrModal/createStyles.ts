import { MODAL_FADE_MS } from '../constants.js'
import { dark } from '../themes/dark.js'
import { light, type ThemeColors } from '../themes/light.js'

const vars = (colors: ThemeColors) =>
  Object.entries(colors)
    .map(([key, value]) => `--${key}:${value}`)
    .join(';')

/** Below this viewport width (phones, and phones held sideways are wider) the card is a bottom sheet. */
const SHEET_MAX_WIDTH = '520px'

/**
 * The modal's whole style sheet, scoped by its shadow root: host pages cannot restyle it and it cannot leak out.
 * `data-theme` on the root picks `light`, `dark` or `system` (follows `prefers-color-scheme`).
 *
 * The card has one height whatever its tab shows (the tab bar stays under the pointer when the tab changes), taller
 * when the browser wallets sit above the tabs: the header and tabs stay put and the panel scrolls inside, so at 200 % zoom every control is still reachable. On
 * narrow viewports the card is a bottom sheet clear of the safe areas (home indicator, notch). A relay's refusal, shown
 * alone, takes only the height of its message. The wallet list's page numbers stick to the panel's bottom edge, above
 * the countdown. The QR code takes the panel's height less its one- or two-line caption (the panel is its size
 * container), between 128 px (~2 px a module of a v2 code) and 320 px, so at 200 % zoom it is whole as the modal opens.
 * Below 320 px of height (400 % zoom) the whole card scrolls instead of a panel too short to show anything.
 */
export function createStyles(): string {
  const fade = `${MODAL_FADE_MS}ms`
  return `:host{all:initial}*{box-sizing:border-box}
.root{${vars(light)};position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;padding:16px;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);animation:fade ${fade} ease}
.root[data-theme=dark]{${vars(dark)};color-scheme:dark}
@media (prefers-color-scheme:dark){.root[data-theme=system]{${vars(dark)};color-scheme:dark}}
.root.out{animation:fade ${fade} ease reverse forwards}
@keyframes fade{from{opacity:0}}
@keyframes rise{from{transform:translateY(100%)}}
.backdrop{position:absolute;inset:0;background:var(--backdrop)}
.card{position:relative;display:flex;flex-direction:column;width:100%;max-width:500px;height:min(620px,100%);overflow:hidden;background:var(--bg);border-radius:24px;padding:16px 24px 20px;box-shadow:0 10px 50px 5px rgba(0,0,0,.4);outline:none}
.panel:has(.qrbox){container-type:size}
@media (max-height:480px){.root{padding:8px}.card{padding:8px 16px 12px}}
@media (max-height:320px){.card{overflow:auto}.card .body,.card .panel{flex:none;overflow:visible;container-type:normal}}
@media (max-width:${SHEET_MAX_WIDTH}){.root{align-items:flex-end;padding:16px 0 0}.card{max-width:none;border-radius:20px 20px 0 0;padding:12px max(16px,env(safe-area-inset-right)) max(16px,env(safe-area-inset-bottom)) max(16px,env(safe-area-inset-left));animation:rise ${fade} ease}.card::before{content:"";display:block;flex:none;width:36px;height:4px;margin:0 auto 8px;border-radius:2px;background:var(--border)}}
@media (prefers-reduced-motion:reduce){.root,.root.out,.card{animation:none}}
.header{display:flex;flex:none;align-items:center;gap:8px;margin-bottom:12px}
.title{margin:0;flex:1;font-size:18px;font-weight:600}
.body{display:flex;flex-direction:column;flex:1;min-height:0}
.card:has(.refused){height:auto}
.panel{flex:1;min-height:0;overflow:auto;margin:0 -6px;padding:4px 6px}
button,a,input{font:inherit;color:inherit}
button{cursor:pointer}
:disabled{opacity:.4}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.close{flex:none;width:44px;height:44px;border:0;border-radius:50%;background:var(--surface);display:flex;align-items:center;justify-content:center}
.tabs{display:flex;flex:none;gap:4px;background:var(--surface);border-radius:12px;padding:4px;margin-bottom:12px}
.tab{flex:1;border:0;background:none;padding:8px;border-radius:8px;font-weight:600;color:var(--muted)}
.tab[aria-selected=true]{background:var(--bg);color:var(--fg);box-shadow:0 1px 3px rgba(0,0,0,.25)}
.text{text-align:center;color:var(--muted);margin:0 0 12px}
.qrbox{position:relative;width:min(100%,320px,max(128px,100cqh - 54px));margin:0 auto;border-radius:8px;overflow:hidden}
.qr{display:block;width:100%;transition:opacity .2s}
.qr[aria-busy=true]{opacity:.15}
.dead .qr{filter:blur(12px)}
.dead::after{content:"";position:absolute;inset:0;background:var(--bg);opacity:.75}
.expiry{flex:none;text-align:center;color:var(--muted);font-variant-numeric:tabular-nums}
.expiry p{margin:8px 0 0}
.sr{position:absolute;clip-path:inset(50%)}
.bridge{flex:none;margin:0 0 12px;padding:10px 14px;border-radius:12px;background:var(--surface);text-align:center;font-weight:600}
.bridge:empty{display:none}
.copy{display:block;margin:12px auto 0;padding:8px;border:0;background:none;color:var(--link);text-decoration:underline}
.toast{margin:4px 0 0;text-align:center;font-weight:600;min-height:1.4em}
.search{width:100%;padding:10px 14px;margin-bottom:16px;border:1px solid var(--border);border-radius:12px;background:var(--surface)}
.grid{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:8px 6px}
.wallet{display:flex;flex-direction:column;align-items:center;gap:6px;padding:8px 2px;border-radius:12px;font-size:12px;line-height:1.25;text-align:center;text-decoration:none}
.wallet:hover{background:var(--surface)}
a:not([href]){filter:grayscale(1)}
.icon{flex:none;width:52px;height:52px;border-radius:14px;display:flex;align-items:center;justify-content:center;overflow:hidden;font-size:19px;font-weight:700;letter-spacing:-.02em;background-image:linear-gradient(150deg,rgba(255,255,255,.2),rgba(0,0,0,.12));box-shadow:inset 0 0 0 1px rgba(127,127,127,.3)}
.icon img{display:block;width:100%;height:100%;object-fit:cover}
.name{max-width:100%;overflow:hidden;overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2}
.pages{position:sticky;bottom:0;display:flex;flex-wrap:wrap;justify-content:center;gap:4px;margin-top:12px;background:var(--bg)}
.page{min-width:40px;min-height:40px;border:0;border-radius:8px;background:none}
.page[aria-current=page]{font-weight:700;background:var(--surface)}
.status{text-align:center;color:var(--muted);padding:24px 0;margin:0}
.refused{color:var(--fg);padding:32px 8px}
.button{display:block;width:fit-content;margin:16px auto 0;padding:12px 24px;border:0;border-radius:12px;background:rgb(64,153,255);color:#06162b;font-weight:600;text-align:center;text-decoration:none}
.single{display:block;flex:none;text-align:center;margin-bottom:12px;color:var(--link);font-weight:600}
.card:has(.injected){height:min(700px,100%)}
.injected{flex:none;margin-bottom:12px}
.injected .text{margin-bottom:8px}
.chips{list-style:none;margin:0;padding:2px;display:flex;flex-wrap:wrap;justify-content:center;gap:8px;max-height:96px;overflow:auto}
.chip{display:flex;align-items:center;gap:8px;padding:4px;padding-inline-end:12px;border:1px solid var(--border);border-radius:12px;background:var(--surface);font-size:14px;font-weight:600}
.chip .icon{width:28px;height:28px;border-radius:8px;font-size:12px}`
}
