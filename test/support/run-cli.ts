/** Runs the real CLI from source in a child process (the same entry point the bin uses after a build). */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

export const repositoryRoot = resolve(import.meta.dirname, '..', '..')

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

export function runCli(args: readonly string[], options: { cwd?: string; input?: string } = {}): CliResult {
  const result = spawnSync(process.execPath, ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), ...args], {
    cwd: options.cwd ?? repositoryRoot,
    encoding: 'utf8',
    input: options.input,
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
