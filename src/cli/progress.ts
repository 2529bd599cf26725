/** @module cli: a progress bar on stderr for long runs; silent when stderr is not a terminal. */
import cliProgress from 'cli-progress'

export interface Progress {
  update(done: number, total: number): void
  stop(): void
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { update() {}, stop() {} }
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left`, stream, hideCursor: true },
    cliProgress.Presets.shades_classic,
  )
  let started = false
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0)
        started = true
      }
      bar.setTotal(total)
      bar.update(done)
    },
    stop() {
      if (started) bar.stop()
    },
  }
}
