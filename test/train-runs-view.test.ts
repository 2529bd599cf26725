/**
 * `GET /train/runs` over runs of the trainer process double: every run under the outputs root, newest
 * first, with its state, its reward curve (the log history's own numbers) and summary; a failed run with
 * its cause (the traceback's exception line, not its top); a probed run with the learning verdict its
 * probe report gives; a run folder whose status file does not parse is reported, not skipped; folders
 * that are not runs and links out of the root are not listed.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { learningFromProbe } from '../src/train/smoke/learning-probe.js'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'

type Run = {
  run_id: string
  state: string | null
  preset: string | null
  reward_curve: [number, number][]
  summary: { reward_first: number; reward_last: number } | null
  error: { code: string; message: string; cause?: string } | null
  learning: { passed: boolean; metric: string | null; reward: { gain: number; ci95: { low: number } | null } } | null
  unreadable: string[]
}

let server: OperationsServer

beforeAll(async () => {
  process.env.FAKE_TRAINER_STEP_SECONDS = '0.05'
  server = await startOperationsServer()
})

afterAll(async () => {
  delete process.env.FAKE_TRAINER_STEP_SECONDS
  delete process.env.FAKE_TRAINER_EXIT
  await server.dispose()
})

async function runToEnd(body: unknown): Promise<string> {
  const started = (await (await server.call('/train/start', { method: 'POST', body })).json()) as { run_id: string }
  await waitFor(async () => !((await (await server.call('/train/status')).json()) as { running: boolean }).running)
  return started.run_id
}

const runs = async () => ((await (await server.call('/train/runs')).json()) as { runs: Run[] }).runs

/**
 * A probe report as `releaseops_train.probe` writes it: 8 rows × 2 samples, no call before; after, an
 * accepted hold (−0.55) and an accepted inspection of relevant evidence (−0.45) on every row.
 */
function probeReport(): unknown {
  const sample = (index: number, after: boolean) => ({
    row: Math.floor(index / 2),
    tool: after ? (index % 2 === 0 ? 'hold_release' : 'inspect_ci_run') : null,
    accepted: after,
    reward: after ? (index % 2 === 0 ? -0.55 : -0.45) : -0.6,
    start_reward: -0.6,
  })
  const stats = (after: boolean) => {
    const perSample = Array.from({ length: 16 }, (_, index) => sample(index, after))
    return {
      samples: 16,
      completions_with_call: after ? 16 : 0,
      accepted_calls: after ? 16 : 0,
      rejected_calls: 0,
      accepted_call_rate: after ? 1 : 0,
      mean_reward: after ? -0.5 : -0.6,
      accepted_by_tool: after ? { hold_release: 8, inspect_ci_run: 8 } : {},
      per_sample: perSample,
    }
  }
  return { models: { before: stats(false), after: stats(true) } }
}

describe('the runs view', () => {
  it('lists runs newest first with their curves, states and failure causes', async () => {
    const first = await runToEnd({ preset: 'pilot', max_steps: 3, logging_steps: 1 })
    process.env.FAKE_TRAINER_EXIT = '3'
    const second = await runToEnd({ preset: 'smoke', max_steps: 2 })
    delete process.env.FAKE_TRAINER_EXIT
    const listed = await runs()
    expect(listed.map((run) => run.run_id)).toEqual([second, first].sort().reverse())
    const ok = listed.find((run) => run.run_id === first) as Run
    expect(ok).toMatchObject({ state: 'succeeded', preset: 'pilot', error: null, learning: null, unreadable: [] })
    // The fake trainer logs reward −0.5 + 0.1 × step.
    expect(ok.reward_curve).toEqual([1, 2, 3].map((step) => [step, expect.closeTo(-0.5 + 0.1 * step, 9)]))
    expect(ok.summary?.reward_last).toBeCloseTo(-0.2, 9)
    const failed = listed.find((run) => run.run_id === second) as Run
    expect(failed.state).toBe('failed')
    expect(failed.error).toEqual({
      code: 'trainer_failed',
      message: 'The trainer exited with code 3.',
      cause: 'RuntimeError: fake trainer failure',
    })
    const status = (await (await server.call('/train/status')).json()) as { error: Run['error'] }
    expect(status.error?.cause).toBe('RuntimeError: fake trainer failure')
  })

  it('shows the learning verdict of a probed run, and what it cannot read', async () => {
    const [newest, older] = await runs()
    const folder = join(server.outputs, 'runs', (older as Run).run_id)
    await writeFile(join(folder, 'probe.json'), JSON.stringify(probeReport()))
    const { learning, check } = await learningFromProbe(join(folder, 'probe.json'))
    await writeFile(join(folder, 'learning.json'), JSON.stringify({ ...learning, check }))
    await writeFile(join(server.outputs, 'runs', (newest as Run).run_id, 'status.json'), '{"state": ')
    await mkdir(join(server.outputs, 'runs', 'notes'))
    await mkdir(join(server.outputs, 'elsewhere', '20260101-000000-smoke-abcdef'), { recursive: true })
    await symlink(
      join(server.outputs, 'elsewhere', '20260101-000000-smoke-abcdef'),
      join(server.outputs, 'runs', '20260101-000000-smoke-abcdef'),
    )
    const listed = await runs()
    expect(listed).toHaveLength(2)
    const probed = listed.find((run) => run.run_id === (older as Run).run_id) as Run
    // Every row gained 0.1 (from −0.6 to −0.55 and −0.45), and not by one tool alone.
    expect(probed.learning).toMatchObject({ metric: 'reward', passed: true, reward: { gain: expect.closeTo(0.1, 6) } })
    expect(probed.learning?.reward.ci95?.low).toBeGreaterThan(0)
    const broken = listed.find((run) => run.run_id === (newest as Run).run_id) as Run
    expect(broken.unreadable).toEqual(['status.json'])
  })
})
