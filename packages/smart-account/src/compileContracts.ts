// Compiles contracts/*.sol with solc-js (the npm `solc`: no native compiler) into src/contracts.ts, each contract's
// ABI and creation bytecode as TypeScript constants. `npm run contracts -w @pairlink/smart-account` writes the file;
// contracts.test.ts checks that the committed one is what the sources compile to.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import solc from 'solc'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<string, Record<string, { abi: unknown; evm: { bytecode: { object: string } } }>>
}

/** The text of src/contracts.ts for the sources in contracts/. */
export function compileContracts(): string {
  const dir = join(root, 'contracts')
  const sources = Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.sol'))
      .sort()
      .map((name) => [name, { content: readFileSync(join(dir, name), 'utf8') }]),
  )
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // No metadata hash: the bytecode depends on the sources alone, not on paths or the compiler's build.
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  let text = `// Written by src/compileContracts.ts from contracts/*.sol (solc ${solc.version()}); do not edit.\n`
  for (const file of Object.keys(output.contracts).sort())
    for (const [name, contract] of Object.entries(output.contracts[file] ?? {}))
      text += `\n/** ${name} (contracts/${file}): ABI and creation bytecode. */\nexport const ${name} = {\n  abi: ${JSON.stringify(contract.abi)},\n  bytecode: '0x${contract.evm.bytecode.object}',\n} as const\n`
  return text
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(join(root, 'src/contracts.ts'), compileContracts())
  console.log('[contracts] wrote src/contracts.ts')
}
