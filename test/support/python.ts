/** The Python interpreter tests use for independent checks (pyarrow, websockets): see scripts/setup-python.sh. */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

export function testPython(): string {
  const configured = process.env.RELEASEOPS_PYTHON
  if (configured) return configured
  const venv = resolve(import.meta.dirname, '..', '..', '.venv', 'bin', 'python')
  if (existsSync(venv)) return venv
  throw new Error('No test Python: run `bash scripts/setup-python.sh` (CI does) or set RELEASEOPS_PYTHON.')
}
