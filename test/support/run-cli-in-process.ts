/** Runs the CLI's `main` in this process (one module load for many commands), capturing stdout and stderr. */
import { main } from '../../src/cli/main.js'
import type { CliResult } from './run-cli.js'

export async function runCliInProcess(args: readonly string[]): Promise<CliResult> {
  const out: string[] = []
  const err: string[] = []
  const stdout = process.stdout.write
  const stderr = process.stderr.write
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write
  process.stderr.write = ((chunk: string | Uint8Array) => err.push(String(chunk)) > 0) as typeof process.stderr.write
  process.exitCode = undefined
  try {
    const status = await main(args)
    return { status, stdout: out.join(''), stderr: err.join('') }
  } finally {
    process.stdout.write = stdout
    process.stderr.write = stderr
    process.exitCode = undefined
  }
}
