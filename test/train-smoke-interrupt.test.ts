/**
 * An interrupted `releaseops train smoke` leaves no Python behind (issue 28 item 11): its Python step
 * (here a stand-in that ignores SIGINT and SIGTERM and starts a grandchild) and the grandchild are gone
 * once the CLI has exited on SIGINT or SIGTERM.
 */
import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repositoryRoot } from './support/run-cli.js'

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function interrupted(signal: NodeJS.Signals): Promise<{ code: number | null; pids: number[]; stderr: string }> {
  const work = mkdtempSync(join(tmpdir(), 'releaseops-smoke-interrupt-'))
  const pidsFile = join(work, 'pids')
  const python = join(work, 'python')
  // Deaf to SIGINT/SIGTERM, with a grandchild: only a kill of its whole group ends both.
  writeFileSync(python, `#!/bin/sh\ntrap '' INT TERM\necho $$ >> "${pidsFile}"\nsleep 300 &\necho $! >> "${pidsFile}"\nwait\n`)
  chmodSync(python, 0o755)
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), 'train', 'smoke', '--python', python, '--work', work],
    { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  child.stdout.resume()
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const deadline = Date.now() + 60_000
  while (!(existsSync(pidsFile) && readFileSync(pidsFile, 'utf8').trim().split('\n').length >= 2)) {
    if (Date.now() > deadline) throw new Error(`the Python step never started:\n${stderr}`)
    await new Promise((wait) => setTimeout(wait, 50))
  }
  const pids = readFileSync(pidsFile, 'utf8').trim().split('\n').map(Number)
  child.kill(signal)
  const code = await exited
  return { code, pids, stderr }
}

describe('train smoke, interrupted', () => {
  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: exits ${status}, and its Python step and that step's child are gone`, async () => {
      const { code, pids, stderr } = await interrupted(signal)
      expect(code, stderr).toBe(status)
      const deadline = Date.now() + 3000
      while (pids.some(alive) && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 50))
      expect(pids.filter(alive), `still running: ${pids.filter(alive).join(', ')}`).toEqual([])
    }, 90_000)
  }
})
