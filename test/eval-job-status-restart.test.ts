/**
 * Job status that tells the truth (issue 34), with a real `releaseops serve` process and a scripted model
 * endpoint that errors: a job whose every episode failed is `failed`; one with more than the stated share
 * of unscored episodes is `degraded`; one the server stopped under (SIGTERM, or SIGKILL) is `interrupted`.
 * Each shows that status from `GET /api/eval` after the server restarts, read from the job's marker.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { FaultPlan } from '../src/agent/scripted/fault-plan.js'
import { type MockOpenAiServer, startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../src/agent/scripted/scripted-policy-model.js'
import { envRegistry, policyRegistry } from '../src/envs/index.js'
import type { EvalJobStatus } from '../src/eval/eval-job.js'
import { type ServerProcess, spawnServer } from './support/test-server.js'

const token = 'status-token-0123456789abcdef'
const envId = 'releaseops-v3'
const split = 'eval_unseen'
const outputs = mkdtempSync(join(tmpdir(), 'releaseops-job-status-'))
const open: { close(): Promise<void> }[] = []

afterAll(async () => {
  for (const item of open.reverse()) await item.close()
  rmSync(outputs, { recursive: true, force: true })
}, 120_000)

async function serve(): Promise<ServerProcess> {
  const server = await spawnServer(['--token', token], { env: { RELEASEOPS_OUTPUTS_DIR: outputs } })
  open.push({
    close: () => (server.child.exitCode === null && server.child.signalCode === null ? server.stop() : Promise.resolve()),
  })
  return server
}

async function call(server: ServerProcess, path: string, body?: unknown): Promise<{ status: number; json: EvalJobStatus }> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, json: (await response.json()) as EvalJobStatus }
}

async function until(server: ServerProcess, done: (status: EvalJobStatus) => boolean): Promise<EvalJobStatus> {
  for (let polls = 0; polls < 1200; polls++) {
    const { json } = await call(server, '/api/eval')
    if (done(json)) return json
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the job never reached the expected state')
}

/** The scripted model playing phase-aware-rule on the split's rows; `faults` decides which requests fail. */
async function endpoint(options: { faults?: FaultPlan; latencyMs?: number }): Promise<MockOpenAiServer> {
  const rows = envRegistry.get(envId).dataset!.rows(split)
  const model = new ScriptedPolicyModel({ envId, policy: 'phase-aware-rule', rows, envs: envRegistry, policies: policyRegistry })
  const server = await startMockOpenAiServer({ model, format: 'qwen3', modelName: 'scripted', ...options })
  open.push(server)
  return server
}

const job = (url: string, rows: number, concurrency: number) => ({
  env_id: envId,
  split,
  max_rows: rows,
  model: { name: 'scripted', base_url: url, concurrency },
})

/** Stops the server (SIGTERM: its close sequence; SIGKILL: nothing runs) and starts another on the same outputs. */
async function restart(server: ServerProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<ServerProcess> {
  await new Promise<void>((resolve) => {
    server.child.once('exit', () => resolve())
    server.child.kill(signal)
  })
  return serve()
}

const marker = (jobId: string) => JSON.parse(readFileSync(join(outputs, 'evals', jobId, 'job.json'), 'utf8'))

describe('eval job status after a restart', () => {
  it('failed, degraded and interrupted jobs each keep their status across a restart', async () => {
    let server = await serve()
    expect((await call(server, '/api/eval')).json.state).toBe('idle')

    // Every request errors (500, retried, then unscored): no episode scored.
    const broken = await endpoint({ faults: () => 'server_error' })
    expect((await call(server, '/api/eval', job(broken.url, 2, 2))).status).toBe(202)
    const failed = await until(server, (status) => status.state !== 'running')
    expect(failed).toMatchObject({ state: 'failed', scored: 0, unscored: 2, summary: null, summary_path: null })
    expect(failed.error?.code).toBe('no_episode_scored')
    expect(failed.error?.message).toContain('all 2 went unscored (2 infra_error)')
    expect(readdirSync(join(outputs, 'evals', failed.job_id as string))).not.toContain('summary.json')
    server = await restart(server)
    expect((await call(server, '/api/eval')).json).toEqual(failed)

    // The first five requests fail (one episode's every attempt, concurrency 1): 1 of 10 unscored, above 5%.
    const flaky = await endpoint({ faults: ({ number }) => (number <= 5 ? 'server_error' : null) })
    expect((await call(server, '/api/eval', job(flaky.url, 10, 1))).status).toBe(202)
    const degraded = await until(server, (status) => status.state !== 'running')
    expect(degraded).toMatchObject({ state: 'degraded', scored: 9, unscored: 1, failure_share: 0.1, max_failure_share: 0.05 })
    expect(degraded.error?.code).toBe('episodes_unscored')
    const scripted = (degraded.summary as Record<string, { overall: { count: number } }>).scripted
    expect(scripted?.overall.count).toBe(9)
    server = await restart(server)
    expect((await call(server, '/api/eval')).json).toEqual(degraded)

    // A slow endpoint; the server is stopped (SIGTERM) mid-job: its close sequence records the interruption.
    const slow = await endpoint({ latencyMs: 400 })
    expect((await call(server, '/api/eval', job(slow.url, 40, 1))).status).toBe(202)
    const running = await until(server, (status) => status.state === 'running' && status.done >= 1)
    expect(marker(running.job_id as string)).toMatchObject({ state: 'running', pid: server.pid })
    server = await restart(server, 'SIGTERM')
    const afterTerm = (await call(server, '/api/eval')).json
    expect(afterTerm).toMatchObject({ state: 'interrupted', job_id: running.job_id, summary: null, total: 40 })
    expect(afterTerm.error?.code).toBe('eval_interrupted')
    expect(afterTerm.error?.message).toContain('shut down while this job ran')
    expect(afterTerm.done).toBeGreaterThanOrEqual(1)
    expect(afterTerm.done).toBeLessThan(40)

    // Killed outright (SIGKILL: no close sequence runs): the next start finds the marker and records it.
    expect((await call(server, '/api/eval', job(slow.url, 40, 1))).status).toBe(202)
    const killedJob = await until(server, (status) => status.state === 'running' && status.done >= 1)
    server = await restart(server, 'SIGKILL')
    const afterKill = (await call(server, '/api/eval')).json
    expect(afterKill).toMatchObject({ state: 'interrupted', job_id: killedJob.job_id, ended_at: null })
    expect(afterKill.error?.message).toContain('found at the restart')
    expect(marker(killedJob.job_id as string).state).toBe('interrupted')
    // The earlier jobs' markers still say how they ended.
    expect(marker(failed.job_id as string).state).toBe('failed')
    expect(marker(degraded.job_id as string).state).toBe('degraded')
    expect(marker(running.job_id as string).state).toBe('interrupted')
  }, 420_000)
})
