/** The Python interpreter tests use for independent checks (pyarrow, websockets): see scripts/setup-python.sh. */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

export function testPython(): string {
  const configured = process.env.RELEASEOPS_PYTHON
  if (configured) return configured
  const venv = resolve(import.meta.dirname, '..', '..', '.venv', 'bin', 'python')
  if (existsSync(venv)) return venv
  throw new Error('No test Python: run `bash scripts/setup-python.sh` (CI does) or set RELEASEOPS_PYTHON.')
}

/** Runs the test Python without blocking this process (a server under test may live here); stdin gets `input`. */
export function runTestPython(options: {
  args: readonly string[]
  input?: string
  cwd?: string
  env?: Record<string, string>
}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(testPython(), [...options.args], {
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...options.env },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('close', (status) => resolveRun({ status, stdout, stderr }))
    child.stdin.end(options.input ?? '')
  })
}
