import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { QrModal } from '../../../../packages/modal/src/react.js'

function App() {
  const [open, setOpen] = useState(false)
  const [closes, setCloses] = useState(0)
  const uri = new URLSearchParams(location.search).get('uri') ?? ''
  return (
    <main>
      <button type="button" id="react-opener" onClick={() => setOpen(true)}>
        Connect wallet
      </button>
      <p id="closes">{closes}</p>
      <QrModal
        uri={uri}
        open={open}
        registryUrl="/registry"
        onClose={() => {
          setOpen(false)
          setCloses((count) => count + 1)
        }}
      />
    </main>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(<App />)
