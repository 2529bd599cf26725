/**
 * @module train: why a run failed, in one line, read from the end of its log. A Python traceback ends
 * with the exception's own line (`OSError: We couldn't connect …`), which is the cause; the top of the
 * traceback (what the dashboard once showed) is only where it was raised. Without a traceback the
 * cause is the last line the failed step wrote itself (`warmup: the model does not emit tool calls …`).
 */

/** Lines the supervisor writes around a step: never the cause. */
const supervisorLine = /^(Starting \S+ training at |Command: |Step \d+\/\d+ |Training (succeeded|failed|stopped) at )/

/** The last line of the last traceback, or the last line the step wrote; null when the log holds neither. */
export function failureCause(lines: readonly string[]): string | null {
  const start = lastIndexWhere(lines, (line) => line.startsWith('Traceback (most recent call last):'))
  if (start >= 0) {
    // Frames are indented ("  File …", their source line); the first unindented line closes the traceback.
    for (let index = start + 1; index < lines.length; index++) {
      const line = lines[index] as string
      if (line.trim() !== '' && !/^\s/.test(line)) return line.trim()
    }
  }
  const last = lastIndexWhere(lines, (line) => line.trim() !== '' && !supervisorLine.test(line))
  return last >= 0 ? (lines[last] as string).trim() : null
}

function lastIndexWhere(lines: readonly string[], test: (line: string) => boolean): number {
  for (let index = lines.length - 1; index >= 0; index--) if (test(lines[index] as string)) return index
  return -1
}

/** The status error of a failed run: which step failed and how, and its cause when the log shows one. */
export function failedRunError(options: {
  step: string
  steps: number
  code: number | null
  signal: string | null
  afterError: Error | null
  tail: readonly string[]
}): { code: string; message: string; cause?: string } {
  const who = options.steps > 1 ? `Step ${options.step}` : 'The trainer'
  const message = options.afterError
    ? `${who}: ${options.afterError.message}`
    : options.signal
      ? `${who} was killed by ${options.signal}.`
      : `${who} exited with code ${options.code}.`
  const cause = options.afterError ? options.afterError.message : failureCause(options.tail)
  return { code: 'trainer_failed', message, ...(cause ? { cause } : {}) }
}
