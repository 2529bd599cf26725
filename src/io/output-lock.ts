/**
 * @module io: one writer per output. A writer holds `.<name>.lock` beside its target, created
 * exclusively (`wx`) and holding its pid and start time, from before it checks the target until it has
 * published; a second writer finds the lock and is refused (`output_locked`). A lock whose process is gone
 * (killed writer) is taken over; a live one is never touched. Locks are per process: a stage that holds its
 * output's lock (`withFailedAudit`) and then publishes it takes the same lock again, nested.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { processStartTicks, sameProcessAlive } from './process-alive.js'

export const outputLockFormat = 'releaseops-output-lock-v1'

interface LockContent {
  format: string
  pid: number
  started_at: string
  start_ticks: string | null
}

export interface OutputLock {
  readonly path: string
  release(): void
}

/** Lock path → how many times this process holds it. */
const held = new Map<string, number>()
/** How long an unreadable lock (created, not yet written) counts as a writer starting up. */
const unreadableLockMs = 10_000
let exitHook = false

export function outputLockPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.lock`)
}

function readLock(path: string): LockContent | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockContent>
    return typeof value.pid === 'number' ? (value as LockContent) : null
  } catch {
    return null
  }
}

function lockedError(target: string, path: string, owner: LockContent | null): ReleaseOpsError {
  const who = owner ? `process ${owner.pid} (started ${owner.started_at})` : 'another process'
  return new ReleaseOpsError({
    code: 'output_locked',
    path: target,
    message: `Output ${target} is being written by ${who}; one writer per output. Wait for it to finish or choose another path (lock: ${path}).`,
  })
}

function youngerThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < ms
  } catch {
    return false
  }
}

function tryCreate(path: string, content: string): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    writeSync(fd, content)
  } finally {
    closeSync(fd)
  }
  return true
}

/**
 * Moves a dead writer's lock aside and checks that what was moved is the lock judged dead (a live writer
 * may have taken it over in between: its lock is then put back, and this writer is refused).
 */
function takeOver(path: string, stale: LockContent | null, raw: string): boolean {
  const aside = `${path}.stale-${process.pid}`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    throw error
  }
  let moved = ''
  try {
    moved = readFileSync(aside, 'utf8')
  } catch {}
  if (moved === raw || (stale === null && readLock(aside) === null)) {
    rmSync(aside, { force: true })
    return true
  }
  try {
    linkSync(aside, path)
  } catch {}
  rmSync(aside, { force: true })
  return false
}

/** Takes the lock of `target` or throws `output_locked`. The lock is released by `release()` or on exit. */
export function acquireOutputLock(target: string): OutputLock {
  const path = outputLockPath(target)
  const nested = held.get(path)
  if (nested !== undefined) {
    held.set(path, nested + 1)
    return handle(path)
  }
  const content: LockContent = {
    format: outputLockFormat,
    pid: process.pid,
    started_at: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    start_ticks: processStartTicks(process.pid),
  }
  const text = `${JSON.stringify(content)}\n`
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(path, text)) break
    let raw = ''
    try {
      raw = readFileSync(path, 'utf8')
    } catch {
      continue // released meanwhile: try again
    }
    const owner = readLock(path)
    // An unreadable lock is a writer starting up, unless it has been so for longer than starting up takes.
    const live = owner ? sameProcessAlive(owner.pid, owner.start_ticks) : youngerThan(path, unreadableLockMs)
    if (live || attempt >= 3 || !takeOver(path, owner, raw)) throw lockedError(target, path, owner)
  }
  held.set(path, 1)
  if (!exitHook) {
    exitHook = true
    process.on('exit', () => {
      for (const lock of held.keys()) rmSync(lock, { force: true })
    })
  }
  return handle(path)
}

function handle(path: string): OutputLock {
  let released = false
  return {
    path,
    release() {
      if (released) return
      released = true
      releaseLock(path)
    },
  }
}

function releaseLock(path: string): void {
  const count = held.get(path)
  if (count === undefined) return
  if (count > 1) {
    held.set(path, count - 1)
    return
  }
  held.delete(path)
  if (readLock(path)?.pid === process.pid) rmSync(path, { force: true })
}

export async function withOutputLock<T>(target: string, run: () => Promise<T>): Promise<T> {
  const lock = acquireOutputLock(target)
  try {
    return await run()
  } finally {
    lock.release()
  }
}
