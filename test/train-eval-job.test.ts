/**
 * `/api/eval` as a background job: baseline policies over a split (summary equal to an in-process run,
 * episodes written under the outputs root), a model behind an OpenAI-compatible endpoint (the scripted
 * model server, which plays a policy), one job at a time, cancellation, and bad requests.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envRegistry } from '../src/envs/index.js'
import { buildSummary } from '../src/eval/build-summary.js'
import { runEval } from '../src/eval/run-eval.js'
import { stratifiedRows } from '../src/eval/stratified-rows.js'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'
import { phaseAwareEndpoint } from './train-support/phase-aware-endpoint.js'

type Json = Record<string, unknown>

let server: OperationsServer

beforeAll(async () => {
  server = await startOperationsServer()
})

afterAll(async () => {
  await server.dispose()
})

async function finished(): Promise<Json> {
  await waitFor(async () => ((await (await server.call('/api/eval')).json()) as Json).state !== 'running', 60_000)
  return (await (await server.call('/api/eval')).json()) as Json
}

describe('eval jobs', () => {
  it('runs baseline policies in the background; the summary equals an in-process run', async () => {
    const start = await server.call('/api/eval', {
      method: 'POST',
      body: { split: 'eval', max_rows: 40, policies: ['naive', 'phase-aware-rule'] },
    })
    expect(start.status).toBe(202)
    expect(await start.json()).toMatchObject({
      state: 'running',
      agents: ['naive', 'phase-aware-rule'],
      total: 80,
      env_id: 'releaseops-v2',
    })
    const job = await finished()
    expect(job).toMatchObject({ state: 'succeeded', done: 80, total: 80, error: null, scored: 80, unscored: 0 })
    // 40 rows spread over the split's slices, not its first 40 (all eval_seen).
    const dataset = envRegistry.get('releaseops-v2').dataset!
    expect(job.rows).toEqual({ selected: 40, of: 500, selection: 'stratified', by: [...dataset.groupBy] })
    const rows = stratifiedRows(dataset.rows('eval'), 40, dataset.groupBy)
    const expected = buildSummary(
      await runEval({ envId: 'releaseops-v2', rows, policies: ['naive', 'phase-aware-rule'] }),
      dataset.groupBy,
    )
    expect(Object.keys(expected.naive?.by_split ?? {})).toEqual(['eval_seen', 'eval_unseen'])
    const summary = job.summary as Record<string, Json>
    for (const policy of ['naive', 'phase-aware-rule']) {
      const { run, ...blocks } = summary[policy] as Json
      expect(blocks).toEqual(expected[policy])
      expect(run).toEqual({ env_id: 'releaseops-v2', dataset: 'eval', rows: 40 })
    }
    const written = JSON.parse(await readFile(join(server.outputs, job.summary_path as string), 'utf8'))
    expect(written).toEqual(summary)
    const episodes = (await readFile(join(server.outputs, job.episodes_path as string), 'utf8')).trim().split('\n')
    expect(episodes).toHaveLength(80)
    expect(JSON.parse(episodes[0] as string).steps.length).toBeGreaterThan(0)
  })

  it('evaluates a model endpoint: the scripted model playing phase-aware-rule scores what the policy scores', async () => {
    const { rows, endpoint } = await phaseAwareEndpoint(6)
    try {
      const start = await server.call('/api/eval', {
        method: 'POST',
        body: { split: 'eval', max_rows: 6, model: { name: endpoint.modelName, base_url: endpoint.url, concurrency: 2 } },
      })
      expect(start.status).toBe(202)
      const job = await finished()
      expect(job.state, JSON.stringify(job.error)).toBe('succeeded')
      const policy = buildSummary(await runEval({ envId: 'releaseops-v2', rows, policies: ['phase-aware-rule'] }), [])
      const summary = job.summary as Record<string, { overall: Json }>
      const overall = summary[endpoint.modelName]?.overall as Json
      expect(overall.count).toBe(6)
      expect(overall.avg_reward).toBe(policy['phase-aware-rule']?.overall.avg_reward)
    } finally {
      await endpoint.close()
    }
  })

  it('one job at a time; cancel stops a running job', async () => {
    const first = await server.call('/api/eval', {
      method: 'POST',
      body: { split: 'train', policies: ['naive', 'rule', 'phase-aware-rule'] },
    })
    expect(first.status).toBe(202)
    const second = await server.call('/api/eval', { method: 'POST', body: { split: 'eval' } })
    expect(second.status).toBe(409)
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe('eval_running')
    const cancel = await server.call('/api/eval/cancel', { method: 'POST' })
    expect(cancel.status).toBe(200)
    const job = await finished()
    expect(job.state).toBe('cancelled')
    expect(job.error).toEqual({ code: 'eval_cancelled', message: 'cancelled' })
    expect((await server.call('/api/eval/cancel', { method: 'POST' })).status).toBe(409)
  })

  it('bad requests are coded errors: unknown split, policy or env, a file path, a key in the body', async () => {
    const cases: [unknown, number, string][] = [
      [{ split: 'nope' }, 404, 'unknown_split'],
      [{ policies: ['nope'] }, 404, 'unknown_policy'],
      [{ env_id: 'nope-v1' }, 404, 'unknown_env'],
      [{ split: '../../etc/passwd.jsonl', policies: ['naive'] }, 404, 'unknown_split'],
      [{ model: { name: 'm', base_url: 'file:///etc/passwd' } }, 422, 'validation_error'],
      [{ model: { name: 'm', base_url: 'http://127.0.0.1:1/v1', api_key: 'x' } }, 422, 'validation_error'],
      [{ policies: ['naive'], model: { name: 'm', base_url: 'http://127.0.0.1:1/v1' } }, 422, 'validation_error'],
    ]
    for (const [body, status, code] of cases) {
      const response = await server.call('/api/eval', { method: 'POST', body })
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code)
    }
  })
})
