// Copies the wallet registry data from shared/ (beside the repository) into the project at build time. The copy is
// committed, so a clone without shared/ still builds and serves it.
import { copyFileSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const source = fileURLToPath(new URL('../../../../shared/registry/wallets.json', import.meta.url))
const target = fileURLToPath(new URL('../data/wallets.json', import.meta.url))
if (existsSync(source)) copyFileSync(source, target)
