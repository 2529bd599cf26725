/**
 * End to end over real loopback HTTP: the scripted model plays phase-aware-rule behind the mock
 * OpenAI-compatible server, our OpenAI-compatible model talks to it in every wire mode and chat format
 * (streamed and not, one or two calls per message, with and without reasoning), and the agent loop plays
 * the 50 releaseops-v1 eval rows. Every episode's outcome equals the same policy played in process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ModelMode, modelModes } from '../src/agent/chat-model.js'
import { modelAgent } from '../src/agent/model-agent.js'
import { OpenAiCompatibleModel } from '../src/agent/openai-compatible-model.js'
import { policyAgent } from '../src/agent/policy-agent.js'
import { runEpisode } from '../src/agent/run-episode.js'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import { type MockOpenAiServer, startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../src/agent/scripted/scripted-policy-model.js'
import type { ChatFormatId } from '../src/chat/format-registry.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'

const envId = 'releaseops-v1'
const policyName = 'phase-aware-rule'
const dataset = envRegistry.get(envId).dataset!
const rows = dataset.rows('eval')

interface Outcome {
  reward: number
  terminated: boolean
  terminal_reason: unknown
  steps: number
  metrics: unknown
  calls: string[]
}

function inProcessOutcomes(): Outcome[] {
  const env = makeEnv(envId)
  return rows.map((row) => {
    const result = runPolicyEpisode({
      env,
      policy: policyRegistry.create(envId, policyName),
      reset: dataset.toResetParams(row),
      recordSteps: true,
    })
    return {
      reward: result.reward,
      terminated: result.terminated,
      terminal_reason: result.info.terminal_reason,
      steps: result.stepCount,
      metrics: result.info.metrics,
      calls: (result.steps ?? []).map((step) => JSON.stringify(step.call)),
    }
  })
}

const servers = new Map<string, MockOpenAiServer>()
async function server(format: ChatFormatId, options: { callsPerTurn: number; reasoning: boolean }): Promise<MockOpenAiServer> {
  const key = `${format}/${options.callsPerTurn}/${options.reasoning}`
  let found = servers.get(key)
  if (!found) {
    const model = new ScriptedPolicyModel({
      envId,
      policy: policyName,
      rows,
      envs: envRegistry,
      policies: policyRegistry,
      ...options,
    })
    found = await startMockOpenAiServer({ model, format, modelName: 'scripted-phase-aware' })
    servers.set(key, found)
  }
  return found
}

afterAll(async () => {
  await Promise.all([...servers.values()].map((item) => item.close()))
})

const expected = inProcessOutcomes()

describe('scripted model over HTTP equals the policy in process', () => {
  beforeAll(() => {
    expect(expected.filter((outcome) => outcome.terminal_reason === 'safe_ship').length).toBe(28)
  })

  const cases: { mode: ModelMode; stream: boolean; callsPerTurn: number; reasoning: boolean; enableThinking?: boolean }[] = [
    { mode: 'native', stream: false, callsPerTurn: 1, reasoning: false },
    { mode: 'native', stream: true, callsPerTurn: 2, reasoning: true },
    { mode: 'qwen3', stream: false, callsPerTurn: 1, reasoning: true },
    { mode: 'qwen3', stream: true, callsPerTurn: 2, reasoning: false, enableThinking: false },
    { mode: 'qwen3.5', stream: false, callsPerTurn: 2, reasoning: true },
    { mode: 'qwen3.5', stream: true, callsPerTurn: 1, reasoning: false, enableThinking: false },
    { mode: 'qwen3.5-nothink', stream: false, callsPerTurn: 1, reasoning: false },
    { mode: 'qwen3.5-nothink', stream: true, callsPerTurn: 2, reasoning: true, enableThinking: true },
    { mode: 'json-tool-calls', stream: false, callsPerTurn: 1, reasoning: false },
    { mode: 'json-tool-calls', stream: true, callsPerTurn: 2, reasoning: true },
  ]

  it('covers every mode', () => {
    expect(new Set(cases.map((item) => item.mode))).toEqual(new Set(modelModes))
  })

  for (const item of cases) {
    const label = `${item.mode} stream=${item.stream} calls/turn=${item.callsPerTurn} reasoning=${item.reasoning} thinking=${item.enableThinking}`
    it(label, async () => {
      const format: ChatFormatId = item.mode === 'native' ? 'qwen3' : item.mode
      const mock = await server(format, { callsPerTurn: item.callsPerTurn, reasoning: item.reasoning })
      const model = new OpenAiCompatibleModel({
        baseUrl: mock.url,
        model: mock.modelName,
        mode: item.mode,
        stream: item.stream,
        sampling: { temperature: 0, max_tokens: 512 },
        ...(item.enableThinking === undefined ? {} : { enableThinking: item.enableThinking }),
      })
      const env = makeEnv(envId)
      const agent = modelAgent(model)
      for (const [index, row] of rows.entries()) {
        const result = await runEpisode({ env, agent, reset: dataset.toResetParams(row), prompt: row.prompt })
        const want = expected[index] as Outcome
        expect(result.fault, `row ${index}`).toBeUndefined()
        expect({
          reward: result.reward,
          terminated: result.terminated,
          terminal_reason: result.info.terminal_reason,
          steps: result.steps.length,
          metrics: result.info.metrics,
          calls: result.steps.map((step) => JSON.stringify(step.call)),
        }).toEqual(want)
        expect(result.end).toBe('terminated')
        expect(result.counts.repaired_actions).toBe(0)
        expect(result.counts.parse_issues).toEqual({})
        if (item.callsPerTurn === 2) expect(result.turns.length).toBe(Math.ceil(want.steps / 2))
        if (item.reasoning && item.enableThinking !== false) {
          const assistants = result.trajectory.messages.filter((message) => message.role === 'assistant')
          expect(
            assistants.every(
              (message) => typeof message.reasoning_content === 'string' && message.reasoning_content.startsWith('Turn '),
            ),
          ).toBe(true)
        }
      }
    })
  }

  it('native trajectories over HTTP equal the in-process policy-agent trajectories (ids aside)', async () => {
    const mock = await server('qwen3', { callsPerTurn: 1, reasoning: false })
    const model = new OpenAiCompatibleModel({ baseUrl: mock.url, model: mock.modelName, mode: 'native' })
    const env = makeEnv(envId)
    const strip = (messages: unknown[]) =>
      JSON.parse(
        JSON.stringify(messages)
          .replace(/"(id|tool_call_id)":"[^"]+"/g, '"$1":"-"')
          .replace(/"content":null/g, '"content":""'),
      )
    for (const row of rows.slice(0, 10)) {
      const overHttp = await runEpisode({ env, agent: modelAgent(model), reset: dataset.toResetParams(row), prompt: row.prompt })
      const inProcess = await runEpisode({
        env,
        agent: policyAgent(policyRegistry.create(envId, policyName)),
        reset: dataset.toResetParams(row),
        prompt: row.prompt,
      })
      expect(strip(overHttp.trajectory.messages)).toEqual(strip(inProcess.trajectory.messages))
      expect(overHttp.trajectory.tools).toEqual(inProcess.trajectory.tools)
    }
  })
})
