/**
 * @module io: whether the process that left a file beside an output (a lock, a staging directory,
 * a temporary file) still runs. On Linux the process's start time (`/proc/<pid>/stat`, field 22) tells a
 * live owner from a new process that reused its pid.
 */
import { readFileSync } from 'node:fs'

/** True while `pid` exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The process's start time in clock ticks since boot, where the system says (Linux); else null. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19] ?? null
  } catch {
    return null
  }
}

/** A process that is the one recorded: alive, and (where known) started when it was recorded. */
export function sameProcessAlive(pid: number, startTicks: string | null | undefined): boolean {
  if (!processAlive(pid)) return false
  if (!startTicks) return true
  const now = processStartTicks(pid)
  return now === null || now === startTicks
}
