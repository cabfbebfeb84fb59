import { CLI_OPTIONS } from './cliOptions.js'

/** The `--help` text: one row per flag, its variable and what it sets, in columns as wide as their longest entry. */
export function formatCliUsage(): string {
  const names = CLI_OPTIONS.map((option) => `--${option.flag}${option.kind === 'boolean' ? '' : ' <value>'}`)
  const nameWidth = Math.max(...names.map((name) => name.length)) + 2
  const envWidth = Math.max(...CLI_OPTIONS.map((option) => option.env.length)) + 2
  const rows = CLI_OPTIONS.map(
    (option, i) =>
      `  ${(names[i] as string).padEnd(nameWidth)}${option.env.padEnd(envWidth)}${option.description}`,
  )
  return [
    'Usage: pairlink-bridge [options]',
    '',
    `  ${'flag'.padEnd(nameWidth)}${'env'.padEnd(envWidth)}what`,
    ...rows,
  ].join('\n')
}
