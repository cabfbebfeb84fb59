import { MODAL_FADE_MS } from '../constants.js'
import { dark } from '../themes/dark.js'
import { light, type ThemeColors } from '../themes/light.js'

const vars = (colors: ThemeColors) =>
  Object.entries(colors)
    .map(([key, value]) => `--${key}:${value}`)
    .join(';')

/**
 * The modal's whole style sheet, scoped by its shadow root: host pages cannot restyle it and it cannot leak out.
 * `data-theme` on the root picks `light`, `dark` or `system` (follows `prefers-color-scheme`).
 */
export function createStyles(): string {
  const fade = `${MODAL_FADE_MS}ms`
  return `:host{all:initial}*{box-sizing:border-box}
.root{${vars(light)};position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;padding:16px;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);animation:fade ${fade} ease}
.root[data-theme=dark]{${vars(dark)}}
@media (prefers-color-scheme:dark){.root[data-theme=system]{${vars(dark)}}}
.root.out{animation:fade ${fade} ease reverse forwards}
@keyframes fade{from{opacity:0}}
@media (prefers-reduced-motion:reduce){.root,.root.out{animation:none}}
.backdrop{position:absolute;inset:0;background:var(--backdrop)}
.card{position:relative;width:100%;max-width:500px;max-height:100%;overflow:auto;background:var(--bg);border-radius:24px;padding:16px 24px 24px;box-shadow:0 10px 50px 5px rgba(0,0,0,.4);outline:none}
.header{display:flex;align-items:center;gap:8px;margin-bottom:12px}
.title{margin:0;flex:1;font-size:18px;font-weight:600}
button,a,input{font:inherit;color:inherit}
button{cursor:pointer}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.close{width:44px;height:44px;border:0;border-radius:50%;background:var(--surface);display:flex;align-items:center;justify-content:center}
.tabs{display:flex;gap:4px;background:var(--surface);border-radius:12px;padding:4px;margin-bottom:16px}
.tab{flex:1;border:0;background:none;padding:8px;border-radius:8px;font-weight:600;color:var(--muted)}
.tab[aria-selected=true]{background:var(--bg);color:var(--fg);box-shadow:0 1px 3px rgba(0,0,0,.25)}
.text{text-align:center;color:var(--muted);margin:0 0 16px}
.qr{display:block;width:100%;max-width:320px;margin:0 auto;border-radius:8px;transition:opacity .2s}
.qr[aria-busy=true]{opacity:.15}
.bridge{margin:0 0 12px;padding:10px 14px;border-radius:12px;background:var(--surface);text-align:center;font-weight:600}
.bridge:empty{display:none}
.copy{display:block;margin:12px auto 0;padding:8px;border:0;background:none;color:var(--link);text-decoration:underline}
.toast{margin:8px 0 0;text-align:center;font-weight:600;min-height:1.4em}
.search{width:100%;padding:10px 14px;margin-bottom:16px;border:1px solid var(--border);border-radius:12px;background:var(--surface)}
.grid{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:12px 8px}
.wallet{display:flex;flex-direction:column;align-items:center;gap:6px;padding:6px 2px;border-radius:12px;font-size:12px;text-align:center;text-decoration:none}
.wallet:hover{background:var(--surface)}
.mono{width:52px;height:52px;border-radius:14px;display:flex;align-items:center;justify-content:center;font-size:19px;font-weight:700;box-shadow:inset 0 0 0 1px rgba(127,127,127,.35)}
.name{max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.pages{display:flex;flex-wrap:wrap;justify-content:center;gap:4px;margin-top:16px}
.page{min-width:40px;min-height:40px;border:0;border-radius:8px;background:none}
.page[aria-current=page]{font-weight:700;background:var(--surface)}
.status{text-align:center;color:var(--muted);padding:24px 0;margin:0}
.button{display:block;width:fit-content;margin:16px auto 0;padding:12px 24px;border:0;border-radius:12px;background:rgb(64,153,255);color:#06162b;font-weight:600;text-align:center;text-decoration:none}
.single{display:block;text-align:center;margin-bottom:16px;color:var(--link);font-weight:600}`
}
