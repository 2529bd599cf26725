/**
 * @module io: single-file outputs are written to a temporary file beside them, then renamed, by one
 * writer at a time (`output-lock.ts`). Temporary files that killed writers left beside the output
 * (`.<name>.tmp-<pid>` of a process that no longer runs) are removed by the next writer.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { acquireOutputLock, type OutputLock } from './output-lock.js'
import { processAlive } from './process-alive.js'
import { outputExistsError } from './publish-directory.js'

/** Removes `.<name>.tmp-<pid>` files beside `path` whose process is gone; returns their names. */
function removeStaleTemporaries(path: string): string[] {
  const parent = dirname(path)
  if (!existsSync(parent)) return []
  const prefix = `.${basename(path)}.tmp-`
  const removed: string[] = []
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue
    const pid = name.slice(prefix.length)
    if (!/^\d+$/.test(pid) || processAlive(Number(pid))) continue
    rmSync(join(parent, name), { force: true })
    removed.push(name)
  }
  return removed
}

interface Pending {
  lock: OutputLock
  temporary: string
}

function begin(path: string, overwrite: boolean | undefined): Pending {
  mkdirSync(dirname(path), { recursive: true })
  const lock = acquireOutputLock(path)
  try {
    if (existsSync(path) && !overwrite) throw outputExistsError(path)
    removeStaleTemporaries(path)
    const temporary = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`)
    rmSync(temporary, { force: true })
    return { lock, temporary }
  } catch (error) {
    lock.release()
    throw error
  }
}

/** A failed write: its temporary file goes, the output stays as it was. */
function abort(pending: Pending): void {
  rmSync(pending.temporary, { force: true })
  pending.lock.release()
}

function commit(pending: Pending, path: string): void {
  try {
    renameSync(pending.temporary, path)
  } catch (error) {
    rmSync(pending.temporary, { force: true })
    throw error
  } finally {
    pending.lock.release()
  }
}

export function writeFileAtomic(options: { path: string; overwrite?: boolean; write(temporary: string): void }): void {
  const pending = begin(options.path, options.overwrite)
  try {
    options.write(pending.temporary)
  } catch (error) {
    abort(pending)
    throw error
  }
  commit(pending, options.path)
}

/** The same for an asynchronous writer (a stage that streams its output while it reads its input). */
export async function writeFileAtomicAsync(options: {
  path: string
  overwrite?: boolean
  write(temporary: string): Promise<void>
}): Promise<void> {
  const pending = begin(options.path, options.overwrite)
  try {
    await options.write(pending.temporary)
  } catch (error) {
    abort(pending)
    throw error
  }
  commit(pending, options.path)
}

/** A JSON report (two-space indent, trailing newline), written atomically. */
export function writeJsonReport(options: { path: string; overwrite?: boolean; value: unknown }): void {
  writeFileAtomic({
    path: options.path,
    overwrite: options.overwrite ?? false,
    write: (temporary) => writeFileSync(temporary, `${JSON.stringify(options.value, null, 2)}\n`),
  })
}
