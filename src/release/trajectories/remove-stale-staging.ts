/**
 * @module release/trajectories: removes what killed exports left beside a target: staging directories
 * `.<name>.staging-<pid>-<n>` (see `publishDirectory`) whose process no longer exists. A live process's
 * staging directory is never touched, so concurrent exports to one parent are safe.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes dead processes' staging directories of `target`; returns their names. */
export function removeStaleStaging(target: string): string[] {
  const parent = dirname(target)
  if (!existsSync(parent)) return []
  const pattern = new RegExp(`^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.staging-(\\d+)-\\d+$`)
  const removed: string[] = []
  for (const name of readdirSync(parent)) {
    const match = pattern.exec(name)
    if (!match || isAlive(Number(match[1]))) continue
    rmSync(join(parent, name), { recursive: true, force: true })
    removed.push(name)
  }
  return removed
}
