import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from './atomic-file.js'
import { acquireOutputLock, outputLockFormat, outputLockPath } from './output-lock.js'
import { processStartTicks } from './process-alive.js'
import { publishDirectory } from './publish-directory.js'

const root = () => mkdtempSync(join(tmpdir(), 'releaseops-lock-'))
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
})

/** A live process other than this one, and the pid of one that has exited. */
function liveProcess(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' })
  children.push(child)
  return child.pid as number
}
function deadPid(): number {
  return Number(spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim())
}
function lockOf(pid: number, startTicks: string | null = processStartTicks(pid)): string {
  return `${JSON.stringify({ format: outputLockFormat, pid, started_at: '2026-01-01T00:00:00.000Z', start_ticks: startTicks })}\n`
}

describe('output lock', () => {
  it('is created exclusively beside the target with this pid, and removed on release', () => {
    const target = join(root(), 'release')
    const lock = acquireOutputLock(target)
    expect(lock.path).toBe(outputLockPath(target))
    const content = JSON.parse(readFileSync(lock.path, 'utf8'))
    expect(content).toMatchObject({ format: outputLockFormat, pid: process.pid })
    expect(Number.isNaN(Date.parse(content.started_at))).toBe(false)
    lock.release()
    expect(existsSync(lock.path)).toBe(false)
  })

  it("respects a live process's lock: output_locked, the lock and the target untouched", async () => {
    const parent = root()
    const target = join(parent, 'release')
    const pid = liveProcess()
    writeFileSync(outputLockPath(target), lockOf(pid))
    expect(() => acquireOutputLock(target)).toThrowError(expect.objectContaining({ code: 'output_locked', path: target }))
    await expect(publishDirectory({ target, build: () => {} })).rejects.toMatchObject({ code: 'output_locked' })
    expect(() => writeFileAtomic({ path: target, write: (temporary) => writeFileSync(temporary, 'x') })).toThrowError(
      expect.objectContaining({ code: 'output_locked' }),
    )
    expect(readFileSync(outputLockPath(target), 'utf8')).toBe(lockOf(pid))
    expect(readdirSync(parent)).toEqual(['.release.lock'])
  })

  it('takes over the lock of a dead process', async () => {
    const parent = root()
    const target = join(parent, 'release')
    writeFileSync(outputLockPath(target), lockOf(deadPid(), null))
    await publishDirectory({ target, build: (staging) => writeFileSync(join(staging, 'a.txt'), 'a') })
    expect(readdirSync(parent)).toEqual(['release'])
  })

  // Where the system gives start times (Linux), a live pid with another start time is a reused pid.
  it.runIf(processStartTicks(process.pid) !== null)('takes over the lock of a reused pid (another start time)', async () => {
    const parent = root()
    const target = join(parent, 'release')
    writeFileSync(outputLockPath(target), lockOf(liveProcess(), '1'))
    await publishDirectory({ target, build: (staging) => writeFileSync(join(staging, 'b.txt'), 'b') })
    expect(readdirSync(parent)).toEqual(['release'])
  })

  it('is released when its process exits without releasing it', () => {
    const target = join(root(), 'release')
    const module = new URL('./output-lock.ts', import.meta.url).pathname
    const script = `const { acquireOutputLock } = await import(${JSON.stringify(module)}); acquireOutputLock(${JSON.stringify(target)}); process.exit(0)`
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(result.status, result.stderr).toBe(0)
    expect(existsSync(outputLockPath(target))).toBe(false)
  })

  it('nests within one process (a stage holds its output, then publishes it)', () => {
    const target = join(root(), 'report.json')
    const outer = acquireOutputLock(target)
    writeFileAtomic({ path: target, write: (temporary) => writeFileSync(temporary, '{}') })
    expect(existsSync(outer.path)).toBe(true)
    outer.release()
    expect(existsSync(outer.path)).toBe(false)
    expect(readFileSync(target, 'utf8')).toBe('{}')
  })
})

describe('stale temporary files', () => {
  it("removes a dead process's .<name>.tmp-<pid> (a killed stage's 0-byte file), keeps a live one's", () => {
    const parent = root()
    const path = join(parent, 'all.json')
    const dead = `.all.json.tmp-${deadPid()}`
    const live = `.all.json.tmp-${liveProcess()}`
    const other = `.other.json.tmp-${deadPid()}`
    for (const name of [dead, live, other]) writeFileSync(join(parent, name), '')
    writeFileAtomic({ path, write: (temporary) => writeFileSync(temporary, '[]\n') })
    expect(readdirSync(parent).sort()).toEqual([live, other, 'all.json'].sort())
    expect(readFileSync(path, 'utf8')).toBe('[]\n')
  })
})
