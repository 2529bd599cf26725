/**
 * The rollout gate over real HTTP: a scripted model of controlled accuracy behind the scripted
 * OpenAI-compatible server, two samples per prompt, rolled out through the grading env, the qwen3.5 chat
 * format and the one agent loop. Only the sampled 15% model passes; the others fail with their coded
 * reasons and exactly the expected numbers; malformed replies are counted as parse failures; mixed
 * per-prompt outcomes are measured; an unreachable endpoint is an infrastructure error, never a 0% rate.
 */
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { wilsonInterval } from '../src/eval/wilson-interval.js'
import { type GateFixture, gateFixture, runGate, scriptedEndpoint } from './gate-fixture.js'

let fixture: GateFixture
const servers: MockOpenAiServer[] = []

beforeAll(async () => {
  fixture = await gateFixture()
})
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

async function serve(options: Omit<Parameters<typeof scriptedEndpoint>[0], 'fixture'>): Promise<MockOpenAiServer> {
  const server = await scriptedEndpoint({ fixture, ...options })
  servers.push(server)
  return server
}

describe('rollout gate at controlled accuracies (qwen3.5 text over HTTP, two samples per prompt)', () => {
  // `correct`: right on every sample (no mixed prompt); `alternate`: right on every other sample.
  const cases = [
    { name: '0% correct', correct: 0, alternate: 0, reasons: ['rate_out_of_bounds', 'no_learning_signal'] },
    { name: '3% correct', correct: 0.03, alternate: 0, reasons: ['rate_out_of_bounds', 'no_learning_signal'] },
    { name: '15% correct on every sample', correct: 0.15, alternate: 0, reasons: ['no_learning_signal'] },
    { name: '15% correct, sampled (30% of prompts right on half their samples)', correct: 0, alternate: 0.3, reasons: [] },
    { name: '50% correct, sampled', correct: 0.35, alternate: 0.3, reasons: ['rate_out_of_bounds'] },
  ] as const
  for (const { name, correct: share, alternate: mixed, reasons } of cases) {
    it(`${name} → ${reasons.length === 0 ? 'passed' : reasons.join(', ')}, with the exact numerator, denominator and interval`, async () => {
      const total = fixture.keys.length
      const count = (fraction: number) => (fraction > 0 ? Math.max(1, Math.round(fraction * total)) : 0)
      const correct = new Set(fixture.keys.slice(0, count(share)))
      const alternate = new Set(fixture.keys.slice(count(share), count(share) + count(mixed)))
      const server = await serve({ correct, alternate })
      const { report, episodes } = await runGate({ fixture, baseUrl: server.url })
      const successes = correct.size * 2 + alternate.size
      expect(total).toBeGreaterThanOrEqual(20)
      expect(report.reasons.map((reason) => reason.code)).toEqual(reasons)
      expect(report.status).toBe(reasons.length === 0 ? 'passed' : 'failed')
      expect(report.passed).toBe(reasons.length === 0)
      expect(report.numerator).toBe(successes)
      expect(report.denominator).toBe(total * 2)
      expect(report.rate).toBeCloseTo(successes / (total * 2), 12)
      expect(report.ci95).toEqual(wilsonInterval(successes, total * 2))
      expect(report.per_prompt).toMatchObject({ mixed_prompts: alternate.size, all_success_prompts: correct.size })
      expect(
        episodes
          .filter((episode) => episode.success)
          .map((episode) => `${episode.key}/${episode.sample}`)
          .sort(),
      ).toHaveLength(successes)
      expect(new Set(episodes.filter((episode) => episode.success).map((episode) => episode.key))).toEqual(
        new Set([...correct, ...alternate]),
      )
      expect(report.answers).toEqual({ valid: total * 2, invalid: 0, missing: 0 })
      expect(report.ends).toEqual({ terminated: total * 2 })
      expect(report.tool_calls.per_episode).toBe(2)
      expect(report.signals.tool_use).toMatchObject({ share: 1 })
      expect(report.parse_failures.episodes).toBe(0)
      expect(report.model).toMatchObject({
        name: 'scripted-grader',
        endpoint: server.url,
        mode: 'qwen3.5',
        served: { id: 'scripted-grader', owned_by: 'releaseops' },
      })
      expect(report.release).toMatchObject({ kind: 'rl', format: 'verl_rl_parquet', split: 'val', datasets: ['steel_demo'] })
      expect(server.stats.modelRequests).toBe(total * 2 * 3)
      expect(server.stats.rejected).toBe(0)
    })
  }

  it('the same gate speaks native tool calls too (the endpoint parses them)', async () => {
    const alternate = new Set(fixture.keys.slice(0, 8))
    const server = await serve({ correct: new Set(), alternate, format: 'qwen3' })
    const { report } = await runGate({ fixture, baseUrl: server.url, mode: 'native' })
    expect([report.numerator, report.denominator, report.status]).toEqual([8, fixture.keys.length * 2, 'passed'])
    expect(server.stats.byRoute['POST /v1/chat/completions']).toBe(fixture.keys.length * 2 * 3)
  })
})

describe('malformed output, mixed prompts and outages', () => {
  it('a model that answers in prose is counted as a parse failure, not a crash', async () => {
    const correct = new Set(fixture.keys.slice(0, 4))
    const malformed = new Set(fixture.keys.slice(4, 10))
    const server = await serve({ correct, malformed })
    const { report, episodes } = await runGate({ fixture, baseUrl: server.url, samples: 1 })
    expect(report.numerator).toBe(4)
    expect(report.parse_failures).toMatchObject({
      episodes: 6,
      final_answer_invalid: 6,
      by_code: { 'answer:answer_not_json': 6 },
    })
    expect(report.answers).toMatchObject({ invalid: 6 })
    expect(
      episodes
        .filter((episode) => episode.answer_code === 'answer_not_json')
        .map((episode) => episode.key)
        .sort(),
    ).toEqual([...malformed].sort())
  })

  it('garbled model turns end their episodes as parse failures, and prompts with 0 < k < n successes are measured', async () => {
    // 12 prompts × 2 samples, one at a time: 6 prompts right; sample 0 of 4 of them gets a garbled first turn.
    const prompts = 12
    const correct = new Set(
      fixture.keys.filter((key) => fixture.source.rows.findIndex((row) => row.key === key) < prompts).slice(0, 6),
    )
    const garbled = new Set([...correct].slice(0, 4))
    const rows = fixture.source.rows.slice(0, prompts)
    const garbledRequests = new Set<number>()
    let request = 0
    for (const row of rows) {
      for (let sample = 0; sample < 2; sample++) {
        if (sample === 0 && garbled.has(row.key)) garbledRequests.add(++request)
        else request += 3
      }
    }
    const server = await serve({ correct, faults: ({ number }) => (garbledRequests.has(number) ? 'garbage_content' : null) })
    const { report } = await runGate({ fixture, baseUrl: server.url, samples: 2, concurrency: 1, limit: prompts })
    expect(report.denominator).toBe(prompts * 2)
    expect(report.numerator).toBe(6 * 2 - 4)
    expect(report.per_prompt).toMatchObject({
      samples_per_prompt: 2,
      prompts,
      mixed_prompts: 4,
      all_success_prompts: 2,
      all_zero_prompts: 6,
    })
    expect(report.per_prompt.mixed_share).toBeCloseTo(4 / prompts, 12)
    expect(report.parse_failures.final_answer_invalid).toBe(4)
    expect(report.status).toBe('failed')
    expect(server.stats.faults.garbage_content).toBe(4)
  })

  it('an unreachable endpoint is an infrastructure error with no rate', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const { report, episodes } = await runGate({ fixture, baseUrl: `http://127.0.0.1:${port}/v1` })
    expect(report.status).toBe('infrastructure_error')
    expect(report.passed).toBe(false)
    expect(report.rate).toBeNull()
    expect(report.ci95).toBeNull()
    expect(report.infrastructure).toMatchObject({ unscored_episodes: 1, faults: { endpoint_unreachable: 1 } })
    expect(episodes).toEqual([])
  })

  it('an endpoint that fails mid-run leaves episodes unscored: infrastructure error, not a lower rate', async () => {
    const correct = new Set(fixture.keys.slice(0, 4))
    const server = await serve({ correct, faults: ({ number }) => (number > 20 ? 'server_error' : null) })
    const { report } = await runGate({ fixture, baseUrl: server.url, retries: 1, concurrency: 1, samples: 1 })
    expect(report.status).toBe('infrastructure_error')
    expect(report.rate).toBeNull()
    expect(report.infrastructure.unscored_episodes).toBeGreaterThan(0)
    expect(report.infrastructure.faults).toHaveProperty('endpoint_status')
    expect(report.denominator + report.infrastructure.unscored_episodes).toBe(fixture.keys.length)
  })
})
