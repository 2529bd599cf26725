/**
 * Fault tests over real loopback HTTP: the mock endpoint answers 429, 500, 503, never (timeout), half a
 * body or stream, garbage, resets, or no choices. The loop retries, finishes every episode with the same
 * outcome as a clean run, and reports the retries; faults that outlast the retries end the episode as an
 * infrastructure error, never as a model failure. A model that talks nonsense is a model failure.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { isEndpointError } from '../src/agent/endpoint-error.js'
import { modelAgent } from '../src/agent/model-agent.js'
import { OpenAiCompatibleModel, type OpenAiCompatibleModelOptions } from '../src/agent/openai-compatible-model.js'
import { runEpisode } from '../src/agent/run-episode.js'
import { type FaultKind, type FaultPlan, faultSequence } from '../src/agent/scripted/fault-plan.js'
import { type MockOpenAiServer, startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../src/agent/scripted/scripted-policy-model.js'
import type { ChatFormatId } from '../src/chat/format-registry.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'

const envId = 'releaseops-v1'
const dataset = envRegistry.get(envId).dataset!
const rows = dataset.rows('eval').slice(0, 6)
const scripted = new ScriptedPolicyModel({ envId, policy: 'phase-aware-rule', rows, envs: envRegistry, policies: policyRegistry })

let mock: MockOpenAiServer | undefined
afterEach(async () => {
  await mock?.close()
  mock = undefined
})

async function start(options: { faults?: FaultPlan; format?: ChatFormatId; apiKey?: string }) {
  mock = await startMockOpenAiServer({ model: scripted, format: options.format ?? 'qwen3', ...options })
  return mock
}

function model(server: MockOpenAiServer, options: Partial<OpenAiCompatibleModelOptions> = {}) {
  return new OpenAiCompatibleModel({
    baseUrl: server.url,
    model: server.modelName,
    retry: { initialDelayMs: 1, maxDelayMs: 5, maxAttempts: 4 },
    timeoutMs: 1000,
    ...options,
  })
}

async function play(chatModel: OpenAiCompatibleModel, rowIndex = 0) {
  const row = rows[rowIndex]!
  return runEpisode({ env: makeEnv(envId), agent: modelAgent(chatModel), reset: dataset.toResetParams(row), prompt: row.prompt })
}

const clean = await (async () => {
  const server = await startMockOpenAiServer({ model: scripted, format: 'qwen3' })
  const results = []
  for (let index = 0; index < rows.length; index++) results.push(await play(model(server), index))
  await server.close()
  return results
})()

const transientFaults: [FaultKind, string, boolean][] = [
  ['rate_limit', 'endpoint_status', false],
  ['server_error', 'endpoint_status', false],
  ['unavailable', 'endpoint_status', false],
  ['timeout', 'endpoint_timeout', false],
  ['truncated', 'endpoint_truncated', false],
  ['truncated', 'endpoint_truncated', true],
  ['garbage', 'endpoint_bad_response', false],
  ['reset', 'endpoint_unreachable', false],
  ['empty_choices', 'endpoint_bad_response', false],
]

describe('transient endpoint faults are retried and change nothing', () => {
  for (const [kind, code, stream] of transientFaults) {
    for (const mode of ['native', 'qwen3.5'] as const) {
      it(`${kind} (${mode}${stream ? ', streamed' : ''}) twice in a row on the first turn → retried as ${code}`, async () => {
        const server = await start({ faults: faultSequence([kind, kind]), format: 'qwen3.5' })
        const result = await play(model(server, { mode, stream }))
        expect(result.fault).toBeUndefined()
        expect(result.turns[0]?.retried).toEqual([code, code])
        expect(result.turns[0]?.attempts).toBe(3)
        expect(result.counts.retries).toBe(2)
        expect(result.reward).toBe(clean[0]!.reward)
        expect(result.info).toEqual(clean[0]!.info)
        expect(result.steps.map((step) => step.call)).toEqual(clean[0]!.steps.map((step) => step.call))
        expect(result.counts.parse_issues).toEqual({})
        expect(server.stats.faults[kind]).toBe(2)
      })
    }
  }

  it('a fault on every third request across several episodes: all finish as in the clean run', async () => {
    const server = await start({
      faults: ({ number }) =>
        number % 3 === 0 ? (['rate_limit', 'truncated', 'garbage', 'timeout'] as const)[number % 4]! : null,
    })
    const chatModel = model(server, { stream: true })
    for (let index = 0; index < rows.length; index++) {
      const result = await play(chatModel, index)
      expect(result.fault).toBeUndefined()
      expect([result.reward, result.end, result.info.terminal_reason]).toEqual([
        clean[index]!.reward,
        clean[index]!.end,
        clean[index]!.info.terminal_reason,
      ])
    }
    expect(Object.values(server.stats.faults).reduce((sum, count) => sum + (count ?? 0), 0)).toBeGreaterThan(3)
  })
})

describe('faults that outlast the retries', () => {
  it('end the episode as infra_error with the fault recorded, not as a model failure', async () => {
    const server = await start({ faults: ({ number }) => (number >= 2 ? 'server_error' : null) })
    const result = await play(model(server))
    expect(result.end).toBe('infra_error')
    expect(result.fault).toEqual({
      fault: 'infrastructure',
      code: 'endpoint_status',
      message: expect.stringContaining('HTTP 500'),
      attempts: 4,
    })
    expect(result.terminated).toBe(false)
    expect(result.turns).toHaveLength(1)
    expect(result.counts.parse_issues).toEqual({})
    expect(server.stats.faults.server_error).toBe(4)
  })

  it('an unreachable endpoint is an infrastructure error after the retries', async () => {
    const server = await start({})
    const url = server.url
    await server.close()
    mock = undefined
    const result = await play(
      new OpenAiCompatibleModel({ baseUrl: url, model: 'x', retry: { initialDelayMs: 1, maxAttempts: 2 } }),
    )
    expect(result.end).toBe('infra_error')
    expect(result.fault?.code).toBe('endpoint_unreachable')
    expect(result.fault?.attempts).toBe(2)
  })

  it('a wrong API key or model route is fatal: thrown, so a run stops instead of recording failures', async () => {
    const server = await start({ apiKey: 'secret' })
    const error = await play(model(server, { apiKey: 'wrong' })).catch((caught: unknown) => caught)
    expect(isEndpointError(error) && [error.code, error.fatal, error.status]).toEqual(['endpoint_unauthorized', true, 401])
    const good = await play(model(server, { apiKey: 'secret' }))
    expect(good.reward).toBe(clean[0]!.reward)
    const missing = await play(model(server, { apiKey: 'secret', baseUrl: server.url.replace('/v1', '/v2') })).catch(
      (caught: unknown) => caught,
    )
    expect(isEndpointError(missing) && missing.code).toBe('endpoint_not_found')
  })

  it('a context-length rejection ends the episode as truncated (context_length), not as an infra error', async () => {
    let calls = 0
    const fetchDouble: typeof fetch = async () => {
      calls++
      return new Response(JSON.stringify({ error: { message: "This model's maximum context length is 4096 tokens." } }), {
        status: 400,
      })
    }
    const result = await play(new OpenAiCompatibleModel({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x', fetch: fetchDouble }))
    expect([result.end, result.truncated, result.fault, calls]).toEqual(['context_length', true, undefined, 1])
  })
})

describe('nonsense from the model is the model’s failure', () => {
  for (const [mode, format] of [
    ['native', 'qwen3'],
    ['qwen3', 'qwen3'],
    ['json-tool-calls', 'json-tool-calls'],
  ] as const) {
    it(`${mode}: garbage content ends the episode with no tool call and the parse issue counted`, async () => {
      const server = await start({ faults: faultSequence([null, 'garbage_content']), format })
      const result = await play(model(server, { mode }))
      expect(result.fault).toBeUndefined()
      expect(result.end).toBe('no_tool_call')
      expect(result.truncated).toBe(true)
      expect(result.turns).toHaveLength(2)
      expect(result.counts.retries).toBe(0)
      if (mode === 'json-tool-calls') expect(result.counts.parse_issues).toEqual({ invalid_json: 1 })
    })
  }
})
