/**
 * @module train/smoke: an interrupted `train smoke` (SIGINT, SIGTERM) leaves nothing running (issue 28
 * item 11). Each Python step runs in its own process group and registers a clean-up that kills that
 * group; each env server registers its close (which stops a trainer's group). On a signal every
 * clean-up runs, then the process exits 130 (SIGINT) or 143 (SIGTERM).
 */
import type { ChildProcess } from 'node:child_process'

const cleanups = new Set<() => Promise<void> | void>()

/** Registers a clean-up for an interruption; the returned function unregisters it. */
export function onInterrupt(cleanup: () => Promise<void> | void): () => void {
  cleanups.add(cleanup)
  return () => cleanups.delete(cleanup)
}

/** Kills a detached child's whole process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function killGroup(child: ChildProcess, graceMs = 2000): Promise<void> {
  const pid = child.pid
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal)
    } catch {
      // The group is gone already.
    }
  }
  signalGroup('SIGTERM')
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const timedOut = new Promise<void>((done) => setTimeout(done, graceMs).unref())
  await Promise.race([exited, timedOut])
  // Grandchildren may outlive the child: the group gets SIGKILL either way.
  signalGroup('SIGKILL')
}

/** Installs the SIGINT/SIGTERM handlers for the duration of a smoke; returns their removal. */
export function installInterruptHandlers(): () => void {
  let interrupted = false
  const handler = (signal: NodeJS.Signals) => {
    if (interrupted) return
    interrupted = true
    process.stderr.write(`train smoke: ${signal}: stopping its Python processes and servers\n`)
    const running = [...cleanups].map(async (cleanup) => {
      try {
        await cleanup()
      } catch {
        // Best effort: the other clean-ups still run.
      }
    })
    void Promise.all(running).then(() => process.exit(signal === 'SIGINT' ? 130 : 143))
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
}
