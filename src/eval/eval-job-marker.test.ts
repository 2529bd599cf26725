import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type EvalJobMarker, processAlive, recoverEvalJobs, writeEvalJobMarker } from './eval-job-marker.js'

/** No process has this pid: Linux pids stop at pid_max (at most 2^22). */
const deadPid = () => 2_000_000_000

const marker = (jobId: string, patch: Partial<EvalJobMarker>): EvalJobMarker => ({
  marker_version: 1,
  pid: process.pid,
  request: { split: 'eval' },
  state: 'running',
  job_id: jobId,
  env_id: 'releaseops-v3',
  split: 'eval',
  agents: ['naive'],
  done: 3,
  total: 10,
  rows: { selected: 10, of: 500, selection: 'stratified', by: ['split'] },
  started_at: `2026-01-01T00:00:0${jobId.at(-1)}.000Z`,
  ended_at: null,
  summary_path: null,
  episodes_path: `evals/${jobId}/episodes.jsonl`,
  error: null,
  scored: null,
  unscored: null,
  failure_share: null,
  max_failure_share: 0.05,
  ...patch,
})

async function outputsWith(markers: EvalJobMarker[]): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'releaseops-markers-'))
  for (const item of markers) {
    const folder = join(root, 'evals', item.job_id as string)
    mkdirSync(folder, { recursive: true })
    await writeEvalJobMarker(folder, item)
  }
  return root
}

const now = () => new Date('2026-01-02T00:00:00.000Z')
const onDisk = (root: string, jobId: string) => JSON.parse(readFileSync(join(root, 'evals', jobId, 'job.json'), 'utf8'))

describe('eval job markers at server start', () => {
  it('a running job whose server is gone becomes interrupted, on disk too; the latest job is the one shown', async () => {
    const root = await outputsWith([
      marker('job-1', { state: 'failed', error: { code: 'no_episode_scored', message: 'x' } }),
      marker('job-2', { pid: deadPid() }),
    ])
    const latest = recoverEvalJobs({ outputsRoot: root, pid: process.pid + 1, now })
    expect(latest).toMatchObject({ job_id: 'job-2', state: 'interrupted', done: 3, ended_at: null })
    expect(latest?.error?.code).toBe('eval_interrupted')
    expect(latest?.error?.message).toContain('found at the restart of 2026-01-02T00:00:00.000Z')
    expect(onDisk(root, 'job-2').state).toBe('interrupted')
    expect(onDisk(root, 'job-1').state).toBe('failed')
  })

  it("a marker naming this very pid is a previous run's (a container's server is pid 1 every time)", async () => {
    const root = await outputsWith([marker('job-1', { pid: 4242 })])
    expect(recoverEvalJobs({ outputsRoot: root, pid: 4242, now })?.state).toBe('interrupted')
  })

  it('a job still running in another live server on the same outputs is left alone and not shown', async () => {
    expect(processAlive(process.ppid)).toBe(true)
    const root = await outputsWith([marker('job-1', { state: 'succeeded' }), marker('job-2', { pid: process.ppid })])
    expect(recoverEvalJobs({ outputsRoot: root, pid: process.pid + 1, now })?.job_id).toBe('job-1')
    expect(onDisk(root, 'job-2').state).toBe('running')
  })

  it('no outputs, no evals folder, folders without a marker or with a damaged one: nothing to show', async () => {
    expect(recoverEvalJobs({ outputsRoot: join(tmpdir(), 'releaseops-no-such-root'), pid: 1, now })).toBeUndefined()
    const root = await outputsWith([])
    mkdirSync(join(root, 'evals', 'old-job'), { recursive: true })
    mkdirSync(join(root, 'evals', 'damaged'), { recursive: true })
    writeFileSync(join(root, 'evals', 'damaged', 'job.json'), '{"state": "running"')
    expect(recoverEvalJobs({ outputsRoot: root, pid: 1, now })).toBeUndefined()
    expect(processAlive(deadPid())).toBe(false)
  })
})
