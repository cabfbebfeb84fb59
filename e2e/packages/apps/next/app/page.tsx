import * as bridge from '@pairlink/bridge'
import * as client from '@pairlink/client'
import * as clientV2 from '@pairlink/client/v2'
import * as modal from '@pairlink/modal'
import * as modalInjected from '@pairlink/modal/injected'
import * as modalOpen from '@pairlink/modal/open'
import * as modalReact from '@pairlink/modal/react'
import * as protocol from '@pairlink/protocol'
import * as protocolV2 from '@pairlink/protocol/v2'
import * as provider from '@pairlink/provider'
import * as wagmi from '@pairlink/wagmi'
import { Connect } from './Connect'

// Rendered on the server for every request: each package is imported and its exports counted there.
export const dynamic = 'force-dynamic'

const packages = {
  '@pairlink/bridge': bridge,
  '@pairlink/client': client,
  '@pairlink/client/v2': clientV2,
  '@pairlink/modal': modal,
  '@pairlink/modal/injected': modalInjected,
  '@pairlink/modal/open': modalOpen,
  '@pairlink/modal/react': modalReact,
  '@pairlink/protocol': protocol,
  '@pairlink/protocol/v2': protocolV2,
  '@pairlink/provider': provider,
  '@pairlink/wagmi': wagmi,
}

export default function Page() {
  return (
    <main>
      <ul data-testid="server-rendered">
        {Object.entries(packages).map(([name, exports]) => (
          <li key={name} data-package={name}>
            {`${name}: ${Object.keys(exports).length} exports, window is ${typeof window}`}
          </li>
        ))}
      </ul>
      <Connect />
    </main>
  )
}
