/**
 * Issue 37 item 5: long commands print progress when piped (stderr only, counts and ETA; stdout stays
 * machine-readable) and `--quiet` silences it. The pace is set to 10 ms so a short run shows the lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.js'

const progressLine = /^eval: \d+\/\d+ \(\d+%\), \S+ elapsed, ETA \S+$/m

beforeAll(() => {
  process.env.RELEASEOPS_PROGRESS_INTERVAL_S = '0.01'
})
afterAll(() => {
  delete process.env.RELEASEOPS_PROGRESS_INTERVAL_S
})

describe('progress when piped', () => {
  it('eval: lines with counts and an ETA on stderr, none on stdout; --quiet prints none', () => {
    const args = ['eval', '--policy', 'naive,rule', '--dataset', 'eval', '--no-ceiling']
    const piped = runCli(args)
    expect(piped.status, piped.stderr).toBe(0)
    expect(piped.stderr).toMatch(progressLine)
    expect(piped.stdout).not.toMatch(/^eval: /m)
    const quiet = runCli([...args, '--quiet'])
    expect(quiet.status).toBe(0)
    expect(quiet.stderr).not.toMatch(/^eval: /m)
    expect(quiet.stdout).toBe(piped.stdout)
  })

  it('env audit: the strategies played so far, inside the one long synchronous step', () => {
    const args = ['env', 'audit', '--rows', '20', '--screen', '5', '--finalists', '1', '--fit-rows', '20']
    const piped = runCli(args)
    expect(piped.stderr).toMatch(/^env audit releaseops-v3 strategies: \d+\/\d+ \(\d+%\)/m)
    expect(piped.stdout).not.toMatch(/strategies: /)
  })
})
