import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { BrowserContext } from '@playwright/test'
import { build } from 'esbuild'

/** One browser wallet to inject. */
export type InjectedWalletOptions = {
  name: string
  rdns: string
  /** The dev account (0–9) it holds. @default 0 */
  account?: number | undefined
  /** The icon it announces. @default a square of `color` with the name's initial, as an SVG data URI */
  icon?: string | undefined
  /** @default '#3b5bdb' */
  color?: string | undefined
  /** Set as the legacy `window.ethereum` with these flags (`{ isMetaMask: true }`) instead of announcing itself. */
  legacy?: Record<string, boolean> | undefined
}

/** What the init script reads (window.__PAIRLINK_INJECTED__). */
export type InjectedWalletsConfig = {
  chains: Record<number, string>
  chainId: number
  wallets: {
    uuid: string
    name: string
    rdns: string
    icon: string
    account: number
    legacy?: Record<string, boolean>
  }[]
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
let script: Promise<string> | undefined

/**
 * Injects browser wallets into every page of `context` before the page's own scripts run, as extensions do: real
 * EIP-1193 providers on the reference wallet's signing core (every signature is made with the dev account's key, every
 * transaction sent to the chain), announced through EIP-6963 (or set as `window.ethereum`). `chains` maps each chain
 * id the wallets know to its node; they start on `chainId`. The page's `window.injectedWallets[rdns]` switches
 * accounts and lists the methods asked.
 *
 * @example
 * await injectWallets(context, {
 *   chains: { 31337: anvil.url },
 *   chainId: 31337,
 *   wallets: [{ name: 'Pairlink Test Wallet', rdns: 'org.pairlink.test' }],
 * })
 */
export async function injectWallets(
  context: BrowserContext,
  {
    chains,
    chainId,
    wallets,
  }: { chains: Record<number, string>; chainId: number; wallets: InjectedWalletOptions[] },
): Promise<InjectedWalletsConfig> {
  const config: InjectedWalletsConfig = {
    chains,
    chainId,
    wallets: wallets.map(({ name, rdns, account = 0, icon, color = '#3b5bdb', legacy }) => ({
      uuid: randomUUID(),
      name,
      rdns,
      icon: icon ?? drawIcon(name, color),
      account,
      ...(legacy && { legacy }),
    })),
  }
  script ??= bundle()
  await context.addInitScript({
    content: `window.__PAIRLINK_INJECTED__ = ${JSON.stringify(config)};\n${await script}`,
  })
  return config
}

/** A wallet's icon: its initial on its colour, as an SVG data URI (what extensions announce). */
function drawIcon(name: string, color: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="20" fill="${color}"/><text x="48" y="64" font-family="sans-serif" font-size="48" font-weight="700" fill="#fff" text-anchor="middle">${name.charAt(0)}</text></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [here('page.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    platform: 'browser',
    target: 'es2022',
    alias: { '@pairlink/protocol': here('../../../packages/protocol/src/index.ts') },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  })
  return result.outputFiles[0]?.text ?? ''
}
