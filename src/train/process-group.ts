/**
 * @module train: process groups. A trainer runs in its own group, so everything it starts (data loader
 * workers, compile helpers) can be signalled at once and checked for leftovers. Zombies (exited, not yet
 * reaped by whoever adopted them) are dead and do not count.
 */
import { readdir, readFile } from 'node:fs/promises'

/** Signals every process of a group; a group already gone is fine. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: nothing left in the group
  }
}

/** Live (non-zombie) members of a process group, from /proc (Linux); `null` where /proc is absent. */
export async function processGroupMembers(pgid: number): Promise<number[] | null> {
  const entries = await readdir('/proc').catch(() => null)
  if (entries === null) return null
  const members: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '')
    // After the command name: state, parent pid, process group.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[2] === String(pgid) && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(entry))
  }
  return members
}

/** Waits until no live process is left in the group (a killed process may take a moment to go). */
export async function waitForGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const members = await processGroupMembers(pgid)
    if (members === null) {
      try {
        process.kill(-pgid, 0)
      } catch {
        return true
      }
    } else if (members.length === 0) {
      return true
    }
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
