import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A self-signed certificate and its key, PEM, made for one test run. */
export type TestCertificate = { cert: string; key: string }

/**
 * Makes a throw-away self-signed certificate (P-256, valid 2 days) for `names` with the `openssl` CLI, so no key is
 * ever committed. Names that are IPv4 addresses become IP SANs, the others DNS SANs.
 *
 * @throws when `openssl` is not installed or fails.
 * @example
 * const { cert, key } = await createTestCertificate(['localhost', '127.0.0.1'])
 */
export async function createTestCertificate(names: readonly string[]): Promise<TestCertificate> {
  const [first] = names
  if (!first) throw new Error('createTestCertificate needs at least one name')
  const dir = await mkdtemp(join(tmpdir(), 'pairlink-cert-'))
  try {
    const san = names.map((name) => (/^\d+(\.\d+){3}$/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(',')
    const keyFile = join(dir, 'key.pem')
    const certFile = join(dir, 'cert.pem')
    await run(process.env.OPENSSL ?? 'openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${first}`,
      '-addext',
      `subjectAltName=${san}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ])
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')])
    return { cert, key }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `${command} not found: the test certificate needs the openssl CLI (apt-get install openssl)`
            : `${command} failed: ${error.message}`,
        ),
      ),
    )
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.trim()}`)),
    )
  })
}
