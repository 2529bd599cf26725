import { afterEach, describe, expect, it, vi } from 'vitest'
import { createProgress, progressLine, setProgressQuiet, startHeartbeat } from './progress.js'

/** A piped stderr: not a terminal; collects what is written. */
function pipe() {
  const lines: string[] = []
  return { lines, stream: { isTTY: false, write: (text: string) => lines.push(text) > 0 } as never }
}

afterEach(() => {
  setProgressQuiet(false)
  vi.useRealTimers()
})

describe('progress when not on a terminal', () => {
  it('writes a line with counts, elapsed time and ETA at most every interval', () => {
    let now = 0
    const out = pipe()
    const progress = createProgress('eval', { stream: out.stream, intervalS: 5, now: () => now })
    progress.update(10, 100)
    now = 2_000
    progress.update(20, 100)
    expect(out.lines).toEqual([])
    now = 5_000
    progress.update(25, 100)
    expect(out.lines).toEqual(['eval: 25/100 (25%), 5s elapsed, ETA 15s\n'])
    now = 7_000
    progress.update(30, 100)
    expect(out.lines).toHaveLength(1)
    progress.stop()
  })

  it('names a count without a total as done, and formats minutes', () => {
    expect(progressLine('preprocess rows', 5000, 5000, 75)).toBe('preprocess rows: 5000 done, 1m15s elapsed')
    expect(progressLine('gate', 0, 10, 3)).toBe('gate: 0/10 (0%), 3s elapsed, ETA ?')
  })

  it('a heartbeat says what runs between updates; stop ends it', () => {
    vi.useFakeTimers()
    const out = pipe()
    const beat = startHeartbeat('mock-llm', () => 'starting', { stream: out.stream, intervalS: 5 })
    vi.advanceTimersByTime(5_000)
    expect(out.lines).toEqual(['mock-llm: starting, 5s elapsed\n'])
    beat.stop()
    vi.advanceTimersByTime(20_000)
    expect(out.lines).toHaveLength(1)
  })

  it('--quiet silences both', () => {
    vi.useFakeTimers()
    setProgressQuiet(true)
    const out = pipe()
    const progress = createProgress('eval', { stream: out.stream, intervalS: 1 })
    progress.update(1, 2)
    const beat = startHeartbeat('x', () => 'y', { stream: out.stream, intervalS: 1 })
    vi.advanceTimersByTime(10_000)
    progress.update(2, 2)
    expect(out.lines).toEqual([])
    beat.stop()
  })
})
