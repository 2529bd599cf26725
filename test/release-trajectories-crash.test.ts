/**
 * Crash safety of `trajectories export`: a child process running the export is sent SIGKILL at several
 * moments (start-up, planning, mid-write, validation, just before the rename, and after fixed delays).
 * Afterwards the target directory is either absent or a complete release that validates in full.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { acquireOutputLock } from '../src/io/output-lock.js'
import { validateTrajectoryRelease } from '../src/release/trajectories/validate-trajectory-release.js'
import { type TrajectoryFixture, trajectoryFixture } from './release-trajectories-fixture.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { repositoryRoot } from './support/run-cli.js'

let fixture: TrajectoryFixture
let work: string
let runs = 0
const outcomes: { label: string; lastLine: string; published: boolean }[] = []

beforeAll(async () => {
  fixture = await trajectoryFixture({ rows: 1500 })
  work = temporaryDirectory('trajectories-crash')
})

type Moment = { label: string; when: (line: string, elapsedMs: number) => boolean }

/** Runs the export in a child and kills it at `moment`; resolves with what the child printed. */
function exportAndKill(target: string, moment: Moment | undefined): Promise<{ lines: string[]; killed: boolean }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(repositoryRoot, 'test/release-trajectories-export-child.ts'),
      JSON.stringify({ ...fixture.taskOptions, canonical: fixture.canonical, outputDir: target, thinkSource: 'mock' }),
    ],
    { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const started = Date.now()
  const lines: string[] = []
  let killed = false
  const kill = () => {
    if (!killed && child.exitCode === null) {
      killed = true
      child.kill('SIGKILL')
    }
  }
  let buffered = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8')
    const parts = buffered.split('\n')
    buffered = parts.pop() as string
    for (const line of parts) {
      lines.push(line)
      if (moment?.when(line, Date.now() - started)) kill()
    }
  })
  const timer = setInterval(() => {
    if (moment?.when('', Date.now() - started)) kill()
  }, 5)
  return new Promise((resolvePromise) => {
    child.on('exit', () => {
      clearInterval(timer)
      resolvePromise({ lines, killed })
    })
  })
}

const moments: Moment[] = [
  { label: 'during start-up (400 ms)', when: (_line, elapsed) => elapsed >= 400 },
  { label: 'when planning starts', when: (line) => line === 'phase plan' },
  { label: 'when writing starts', when: (line) => line === 'phase write' },
  { label: 'mid-write (after the first 1024 train rows)', when: (line) => line.startsWith('progress train 1024/') },
  { label: 'while validating the staged release', when: (line) => line === 'phase validate' },
  { label: 'just before the rename', when: (line) => line === 'phase publish' },
  { label: 'after a fixed delay (2.5 s)', when: (_line, elapsed) => elapsed >= 2500 },
  { label: 'after a fixed delay (4 s)', when: (_line, elapsed) => elapsed >= 4000 },
]

describe('SIGKILL at any moment leaves no release or a complete, valid one', () => {
  it.each(moments)('killed $label', async (moment) => {
    const target = join(work, `release-${++runs}`)
    const { lines, killed } = await exportAndKill(target, moment)
    outcomes.push({ label: moment.label, lastLine: lines.at(-1) ?? '', published: existsSync(target) })
    if (existsSync(target)) {
      const report = validateTrajectoryRelease({ dir: target, task: fixture.task })
      expect(report.valid).toBe(true)
      expect(readdirSync(target).sort()).toEqual(['export_report.json', 'test.parquet', 'train.parquet', 'val.parquet'])
    } else {
      expect(killed).toBe(true)
      expect(lines).not.toContain('done')
    }
    // A later export into the same target is not blocked by what the killed one left behind, and clears it.
    if (!existsSync(target)) {
      const retry = await exportAndKill(target, undefined)
      expect(retry.lines.at(-1)).toBe('done')
      expect(validateTrajectoryRelease({ dir: target, task: fixture.task }).valid).toBe(true)
    }
    // A kill between the rename and the lock's release leaves the lock of a dead writer beside a complete
    // release: the next writer of that target takes it over (it is not refused `output_locked`) and clears it.
    const leftovers = () => readdirSync(work).filter((name) => name.startsWith(`.release-${runs}.`))
    if (existsSync(target) && leftovers().length > 0) {
      expect(leftovers()).toEqual([`.release-${runs}.lock`])
      acquireOutputLock(target).release()
    }
    expect(leftovers()).toEqual([])
  })

  it('the kills landed in different phases (the test exercised what it claims)', () => {
    expect(outcomes).toHaveLength(moments.length)
    const phasesAtKill = new Set(
      outcomes.filter((outcome) => !outcome.published).map((outcome) => outcome.lastLine.split(' ').slice(0, 2).join(' ')),
    )
    expect(phasesAtKill.size).toBeGreaterThanOrEqual(4)
    expect(phasesAtKill).toContain('phase validate')
  })
})
