/**
 * LLM evaluation end to end over loopback HTTP (scripted phase-aware-rule behind the mock endpoint) on the
 * releaseops-v1 eval split: the summary equals the in-process baseline's; pass^k; interrupted runs resume
 * from the episodes file without repeating finished episodes; infrastructure failures are reported,
 * excluded from scoring, and retried on resume; a resume with other settings is refused.
 */
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { modelAgent } from '../src/agent/model-agent.js'
import { OpenAiCompatibleModel } from '../src/agent/openai-compatible-model.js'
import { type FaultPlan, randomFaults } from '../src/agent/scripted/fault-plan.js'
import { type MockOpenAiServer, startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../src/agent/scripted/scripted-policy-model.js'
import { ReleaseOpsError } from '../src/core/errors/release-ops-error.js'
import { pythonRound } from '../src/core/python/python-round.js'
import { envRegistry, policyRegistry } from '../src/envs/index.js'
import { buildSummary } from '../src/eval/build-summary.js'
import type { LlmEpisodeLine } from '../src/eval/llm-episode-record.js'
import { buildLlmSummary } from '../src/eval/llm-summary.js'
import { runEval } from '../src/eval/run-eval.js'
import { runLlmEval } from '../src/eval/run-llm-eval.js'
import { wilsonInterval } from '../src/eval/wilson-interval.js'

const envId = 'releaseops-v1'
const dataset = envRegistry.get(envId).dataset!
const rows = dataset.rows('eval')
const groupBy = dataset.groupBy
const work = mkdtempSync(join(tmpdir(), 'releaseops-llm-eval-'))
const scripted = new ScriptedPolicyModel({ envId, policy: 'phase-aware-rule', rows, envs: envRegistry, policies: policyRegistry })
const servers: MockOpenAiServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

async function endpoint(faults?: FaultPlan, latencyMs = 0) {
  const server = await startMockOpenAiServer({
    model: scripted,
    format: 'qwen3',
    modelName: 'scripted',
    latencyMs,
    ...(faults ? { faults } : {}),
  })
  servers.push(server)
  const model = new OpenAiCompatibleModel({
    baseUrl: server.url,
    model: 'scripted',
    mode: 'native',
    retry: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
  })
  return { server, agent: modelAgent(model, 'phase-aware-rule') }
}

const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LlmEpisodeLine)

function withoutLlm(summary: ReturnType<typeof buildLlmSummary>) {
  return JSON.parse(JSON.stringify(summary, (key, value) => (key === 'llm' ? undefined : value)))
}

describe('LLM eval over HTTP', () => {
  it('gives the summary the in-process baseline gives (plus the LLM columns), with 4 episodes in flight', async () => {
    const { server, agent } = await endpoint(undefined, 3)
    const run = await runLlmEval({ envId, envs: envRegistry, rows, agent, concurrency: 4, fingerprint: 'f' })
    expect(run.lines).toHaveLength(50)
    expect(server.stats.peakInFlight).toBeGreaterThan(1)
    expect(server.stats.peakInFlight).toBeLessThanOrEqual(4)
    const summary = buildLlmSummary({ lines: run.lines, groupBy, samples: 1 })
    const baseline = buildSummary(await runEval({ envId, rows, policies: ['phase-aware-rule'] }), groupBy)
    const llm = withoutLlm(summary)['phase-aware-rule']
    for (const [slice, block] of [
      ['overall', llm.overall],
      ...Object.entries(llm.by_family).map(([name, value]) => [name, value]),
    ] as [string, Record<string, unknown>][]) {
      const expected =
        slice === 'overall' ? baseline['phase-aware-rule']!.overall : baseline['phase-aware-rule']!.by_family![slice]!
      for (const [key, value] of Object.entries(expected)) expect(block[key], `${slice} ${key}`).toEqual(value)
    }
    expect(llm.overall).toMatchObject({
      count: 50,
      avg_reward: 0.312,
      safe_ship_rate: 0.56,
      truncated_rate: 0,
      avg_repaired_actions: 0,
      avg_parse_issues: 0,
    })
    const section = summary['phase-aware-rule']!.overall.llm as Record<string, unknown>
    expect(section).toMatchObject({
      episodes: 50,
      scored: 50,
      infra_errors: 0,
      repaired_actions: 0,
      parse_issues: {},
      ends: { terminated: 50 },
    })
    expect((section.latency_ms as { count: number }).count).toBe(run.lines.reduce((total, line) => total + line.llm.turns, 0))
    expect(section.pass_k).toBeUndefined()
  })

  it('finishes a whole run through random faults on 30% of requests, every episode scored as in a clean run', async () => {
    const faults = randomFaults({
      rates: {
        rate_limit: 0.08,
        server_error: 0.05,
        unavailable: 0.03,
        truncated: 0.05,
        garbage: 0.03,
        reset: 0.03,
        empty_choices: 0.02,
        timeout: 0.01,
      },
      seed: 11,
    })
    const server = await startMockOpenAiServer({ model: scripted, format: 'qwen3.5', modelName: 'scripted', faults })
    servers.push(server)
    const model = new OpenAiCompatibleModel({
      baseUrl: server.url,
      model: 'scripted',
      mode: 'qwen3.5',
      stream: true,
      timeoutMs: 1000,
      retry: { initialDelayMs: 1, maxDelayMs: 4, maxAttempts: 10 },
      maxConcurrency: 4,
    })
    const run = await runLlmEval({
      envId,
      envs: envRegistry,
      rows,
      agent: modelAgent(model, 'phase-aware-rule'),
      concurrency: 4,
      fingerprint: 'f',
    })
    expect(run.lines.every((line) => line.status === 'scored')).toBe(true)
    const injected = Object.values(server.stats.faults).reduce((total, count) => total + (count ?? 0), 0)
    expect(injected).toBeGreaterThan(30)
    // Every injected fault cost one retry (a slow answer under a loaded machine may add a timeout retry).
    expect(run.lines.reduce((total, line) => total + line.llm.retries, 0)).toBeGreaterThanOrEqual(injected)
    const summary = withoutLlm(buildLlmSummary({ lines: run.lines, groupBy, samples: 1 }))['phase-aware-rule']
    expect(summary.overall).toMatchObject({
      count: 50,
      avg_reward: 0.312,
      safe_ship_rate: 0.56,
      avg_parse_issues: 0,
      avg_repaired_actions: 0,
    })
  })

  it('reports pass^k over k samples per row (a deterministic policy has pass^k = pass^1)', async () => {
    const { agent } = await endpoint()
    const run = await runLlmEval({
      envId,
      envs: envRegistry,
      rows: rows.slice(0, 10),
      agent,
      samples: 3,
      concurrency: 3,
      fingerprint: 'f',
    })
    expect(run.lines.map((line) => `${line.row_index}/${line.sample}`)).toEqual(
      Array.from({ length: 30 }, (_, index) => `${Math.floor(index / 3)}/${index % 3}`),
    )
    const summary = buildLlmSummary({ lines: run.lines, groupBy, samples: 3 })
    const passK = summary['phase-aware-rule']!.overall.llm as { pass_k: Record<string, unknown> }
    const safe = summary['phase-aware-rule']!.overall.safe_ship_rate
    expect(passK.pass_k).toEqual({ success: 'safe_ship', rows: 10, 'pass^1': safe, 'pass^2': safe, 'pass^3': safe })
    // Samples of one row are clustered: three samples that agree count as one row in every interval.
    const overall = summary['phase-aware-rule']!.overall
    expect(overall.ci95_basis).toMatchObject({ method: 'wilson_row_clustered', rows: 10, episodes: 30 })
    expect((overall.ci95 as Record<string, unknown>).safe_ship_rate).toEqual(
      wilsonInterval(Math.round((safe as number) * 10), 10)!.map((bound) => pythonRound(bound, 3)),
    )
  })

  it('an interrupted run resumes from its episodes file without repeating finished episodes', async () => {
    const path = join(work, 'resume.jsonl')
    const { server, agent } = await endpoint()
    const controller = new AbortController()
    const first = await runLlmEval({
      envId,
      envs: envRegistry,
      rows,
      agent,
      concurrency: 2,
      fingerprint: 'settings-1',
      episodesPath: path,
      signal: controller.signal,
      onEpisode: (_line, done) => {
        if (done === 17) controller.abort(new Error('stop'))
      },
    })
    expect(first.aborted).toBe(true)
    const saved = readLines(path)
    expect(saved.length).toBeGreaterThanOrEqual(17)
    expect(saved.length).toBeLessThan(50)
    appendFileSync(path, '{"row_index": 49, "sample": 0, "row_key": "half-writ')
    const requestsBefore = server.stats.modelRequests
    const second = await runLlmEval({
      envId,
      envs: envRegistry,
      rows,
      agent,
      concurrency: 2,
      fingerprint: 'settings-1',
      episodesPath: path,
      resume: true,
    })
    expect(second.resumed).toBe(saved.length)
    expect(second.ran).toBe(50 - saved.length)
    expect(second.droppedBytes).toBeGreaterThan(0)
    const all = readLines(path)
    expect(all).toHaveLength(50)
    expect(new Set(all.map((line) => `${line.row_index}/${line.sample}`)).size).toBe(50)
    const rerunTurns = all.slice(saved.length).reduce((total, line) => total + line.llm.turns, 0)
    // Only the unfinished episodes were asked again (plus at most the 2 aborted requests still in flight).
    const asked = server.stats.modelRequests - requestsBefore
    expect(asked).toBeGreaterThanOrEqual(rerunTurns)
    expect(asked).toBeLessThanOrEqual(rerunTurns + 2)
    expect(all.slice(0, saved.length)).toEqual(saved)
    const clean = await runLlmEval({ envId, envs: envRegistry, rows, agent, fingerprint: 'f' })
    expect(withoutLlm(buildLlmSummary({ lines: second.lines, groupBy, samples: 1 }))).toEqual(
      withoutLlm(buildLlmSummary({ lines: clean.lines, groupBy, samples: 1 })),
    )
  })

  it('refuses to resume with other settings, or to overwrite a file without --resume', async () => {
    const path = join(work, 'resume.jsonl')
    const { agent } = await endpoint()
    const mismatch = await runLlmEval({
      envId,
      envs: envRegistry,
      rows,
      agent,
      fingerprint: 'settings-2',
      episodesPath: path,
      resume: true,
    }).catch((error: unknown) => error)
    expect(ReleaseOpsError.isInstance(mismatch) && mismatch.code).toBe('resume_mismatch')
    const exists = await runLlmEval({
      envId,
      envs: envRegistry,
      rows,
      agent,
      fingerprint: 'settings-1',
      episodesPath: path,
    }).catch((error: unknown) => error)
    expect(ReleaseOpsError.isInstance(exists) && exists.code).toBe('episodes_file_exists')
  })

  it('infrastructure failures are reported and unscored, then retried on resume', async () => {
    const path = join(work, 'infra.jsonl')
    const broken = await endpoint(({ number }) => (number > 10 && number <= 40 ? 'server_error' : null))
    const first = await runLlmEval({
      envId,
      envs: envRegistry,
      rows: rows.slice(0, 20),
      agent: broken.agent,
      fingerprint: 'f',
      episodesPath: path,
    })
    const unscored = first.lines.filter((line) => line.status !== 'scored')
    expect(unscored.length).toBeGreaterThan(0)
    expect(
      unscored.every(
        (line) => line.status === 'infra_error' && line.fault?.code === 'endpoint_status' && line.end === 'infra_error',
      ),
    ).toBe(true)
    const summary = buildLlmSummary({ lines: first.lines, groupBy, samples: 1 })
    const overall = summary['phase-aware-rule']!.overall
    expect(overall.count).toBe(20 - unscored.length)
    expect(overall.llm).toMatchObject({ episodes: 20, scored: 20 - unscored.length, infra_errors: unscored.length })
    expect(overall.avg_parse_issues).toBe(0)
    const healthy = await endpoint()
    const second = await runLlmEval({
      envId,
      envs: envRegistry,
      rows: rows.slice(0, 20),
      agent: healthy.agent,
      fingerprint: 'f',
      episodesPath: path,
      resume: true,
    })
    expect(second.ran).toBe(unscored.length)
    expect(second.lines.every((line) => line.status === 'scored')).toBe(true)
    const clean = await runLlmEval({ envId, envs: envRegistry, rows: rows.slice(0, 20), agent: healthy.agent, fingerprint: 'f' })
    expect(second.lines.map((line) => [line.reward, line.terminal_reason])).toEqual(
      clean.lines.map((line) => [line.reward, line.terminal_reason]),
    )
  })

  it('a fatal endpoint error stops the run and keeps what finished', async () => {
    const path = join(work, 'fatal.jsonl')
    const { server } = await endpoint()
    const model = new OpenAiCompatibleModel({ baseUrl: server.url.replace('/v1', '/nope'), model: 'scripted' })
    const error = await runLlmEval({
      envId,
      envs: envRegistry,
      rows,
      agent: modelAgent(model),
      concurrency: 3,
      fingerprint: 'f',
      episodesPath: path,
    }).catch((caught: unknown) => caught)
    expect(ReleaseOpsError.isInstance(error) && error.code).toBe('endpoint_not_found')
    expect(readFileSync(path, 'utf8')).toBe('')
  })
})
