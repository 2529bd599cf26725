/**
 * @module cli: progress of long commands, always on stderr (stdout stays machine-readable). On a terminal
 * a bar; piped or logged (issue 37 item 5), a line every few seconds with counts, elapsed time and an
 * ETA; `--quiet` silences both. `startHeartbeat` is the same line for work without counts (a stage, a
 * server coming up): what is running and for how long.
 */
import cliProgress from 'cli-progress'

export interface Progress {
  update(done: number, total: number): void
  stop(): void
}

export interface ProgressOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean }
  /** Seconds between two lines when not on a terminal. */
  intervalS?: number
  now?: () => number
}

let quiet = false

/** The program's `--quiet` option (flags, description). */
export const quietOption = ['-q, --quiet', 'no progress lines on stderr (long commands print one every few seconds)'] as const

/** `--quiet`: no progress output at all (set once by the program before a command runs). */
export function setProgressQuiet(value: boolean): void {
  quiet = value
}

const progressIntervalS = 5

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?'
  const whole = Math.max(0, Math.round(seconds))
  if (whole < 60) return `${whole}s`
  const minutes = Math.floor(whole / 60)
  return minutes < 60 ? `${minutes}m${String(whole % 60).padStart(2, '0')}s` : `${Math.floor(minutes / 60)}h${minutes % 60}m`
}

/** One progress line: `label: 120/500 (24%), 30s elapsed, ETA 1m35s`; without a known total, the count only. */
export function progressLine(label: string, done: number, total: number, elapsedS: number): string {
  if (total <= 0 || total === done) return `${label}: ${done} done, ${duration(elapsedS)} elapsed`
  const percent = Math.floor((100 * done) / total)
  const eta = done === 0 ? Number.NaN : (elapsedS * (total - done)) / done
  return `${label}: ${done}/${total} (${percent}%), ${duration(elapsedS)} elapsed, ETA ${duration(eta)}`
}

/**
 * The latest state every `intervalS`, never more often, none after `stop`: written from `poke` (work that
 * never yields, such as the exploit audit, reports there) or from a timer (async work between updates).
 */
function timedLines(options: Required<ProgressOptions>, line: (elapsedS: number) => string | null) {
  const started = options.now()
  let last = started
  const poke = () => {
    const now = options.now()
    // 100 ms of slack: the timer itself fires about intervalS after the last line.
    if (now - last < options.intervalS * 1000 - 100) return
    last = now
    const text = line((now - started) / 1000)
    if (text !== null) options.stream.write(`${text}\n`)
  }
  const timer = setInterval(poke, options.intervalS * 1000)
  timer.unref()
  return { poke, stop: () => clearInterval(timer) }
}

/** `RELEASEOPS_PROGRESS_INTERVAL_S` changes the pace (a test's fraction of a second; a log's minute). */
function intervalFromEnvironment(): number {
  const value = Number(process.env.RELEASEOPS_PROGRESS_INTERVAL_S)
  return Number.isFinite(value) && value > 0 ? value : progressIntervalS
}

function resolved(options: ProgressOptions): Required<ProgressOptions> {
  return { stream: process.stderr, intervalS: intervalFromEnvironment(), now: Date.now, ...options }
}

export function createProgress(label: string, options: ProgressOptions = {}): Progress {
  if (quiet) return { update() {}, stop() {} }
  const settings = resolved(options)
  if (settings.stream.isTTY) return terminalBar(label, settings.stream as NodeJS.WriteStream)
  let state: { done: number; total: number } | null = null
  let lines: ReturnType<typeof timedLines> | null = null
  return {
    update(done, total) {
      state = { done, total }
      lines ??= timedLines(settings, (elapsedS) => (state ? progressLine(label, state.done, state.total, elapsedS) : null))
      lines.poke()
    },
    stop() {
      lines?.stop()
    },
  }
}

/** A line every few seconds while uncounted work runs: `label: <what>, 25s elapsed`. */
export function startHeartbeat(label: string, what: () => string, options: ProgressOptions = {}): { stop(): void } {
  if (quiet) return { stop() {} }
  const settings = resolved(options)
  return timedLines(settings, (elapsedS) => `${label}: ${what()}, ${duration(elapsedS)} elapsed`)
}

function terminalBar(label: string, stream: NodeJS.WriteStream): Progress {
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
