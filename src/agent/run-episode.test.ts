/** The agent loop in process: parity with the policy loop, determinism, stop rules, faults by kind, the TRL prompt. */
import { describe, expect, it } from 'vitest'
import type { Env } from '../core/env/env-api.js'
import { envRegistry, makeEnv, policyRegistry } from '../envs/index.js'
import type { Agent, AgentTurn } from './agent.js'
import { initialMessages } from './episode-prompt.js'
import { policyAgent } from './policy-agent.js'
import { runEpisode } from './run-episode.js'
import { runPolicyEpisode } from './run-policy-episode.js'
import { hasToolCall, isStepCount } from './stop-condition.js'

const envId = 'releaseops-v1'
const dataset = envRegistry.get(envId).dataset!
const agentFor = (name: string) => policyAgent(policyRegistry.create(envId, name))
/** A model turn that says `content` and makes `toolCalls`, first try, nothing repaired. */
const answer = (content: string, toolCalls: AgentTurn['toolCalls']): AgentTurn => ({
  message: { role: 'assistant', content },
  toolCalls,
  issues: [],
  repairs: 0,
  finishReason: 'stop',
  usage: null,
  latencyMs: 0,
  firstTokenMs: null,
  attempts: 1,
  retried: [],
})

describe('runEpisode with a policy agent', () => {
  it('plays every baseline on the 120 train rows exactly as the policy loop does (the duplicate-id rows truncate)', async () => {
    const env = makeEnv(envId)
    let truncatedRows = 0
    for (const name of ['naive', 'rule', 'phase-aware-rule']) {
      for (const row of dataset.rows('train')) {
        const reset = dataset.toResetParams(row)
        const expected = runPolicyEpisode({ env, policy: policyRegistry.create(envId, name), reset, recordSteps: true })
        const result = await runEpisode({ env, agent: agentFor(name), reset, prompt: row.prompt })
        expect([result.reward, result.info, result.steps.map((step) => step.call)]).toEqual([
          expected.reward,
          expected.info,
          expected.steps?.map((step) => step.call),
        ])
        expect(result.terminated).toBe(expected.terminated)
        if (expected.truncated) {
          truncatedRows++
          expect(result.end).toBe('truncated')
        }
      }
    }
    expect(truncatedRows).toBeGreaterThan(0)
  })

  it('records byte-identical trajectories for the same seed and agent', async () => {
    const row = dataset.rows('eval')[3]!
    const play = async () =>
      JSON.stringify(
        (
          await runEpisode({
            env: makeEnv(envId),
            agent: agentFor('rule'),
            reset: dataset.toResetParams(row),
            prompt: row.prompt,
          })
        ).trajectory,
      )
    expect(await play()).toBe(await play())
    const trajectory = JSON.parse(await play())
    expect(trajectory.format).toBe('qwen3.5-native-tools-v2')
    expect(trajectory.tools.map((tool: { function: { name: string } }) => tool.function.name)).toContain('inspect_pr_diff')
    expect(trajectory.messages.map((message: { role: string }) => message.role).slice(0, 4)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ])
    expect(trajectory.messages[2].tool_calls[0].function.arguments).toBeTypeOf('object')
  })
})

describe('stop rules', () => {
  const row = dataset.rows('eval')[0]!
  const reset = dataset.toResetParams(row)

  it('stops on a predicate, on max turns, and runs at most maxToolCallsPerTurn calls', async () => {
    const stepLimited = await runEpisode({
      env: makeEnv(envId),
      agent: agentFor('phase-aware-rule'),
      reset,
      stopWhen: [isStepCount(1)],
    })
    expect([stepLimited.end, stepLimited.steps.length, stepLimited.truncated]).toEqual(['stop_condition', 1, true])
    const plain = await runEpisode({ env: makeEnv(envId), agent: agentFor('phase-aware-rule'), reset })
    const second = plain.steps[1]!.call.name
    expect(plain.steps.length).toBeGreaterThan(2)
    const byTool = await runEpisode({
      env: makeEnv(envId),
      agent: agentFor('phase-aware-rule'),
      reset,
      stopWhen: [hasToolCall(second)],
    })
    expect(byTool.steps.map((step) => step.call.name)).toEqual(
      plain.steps.slice(0, plain.steps.findIndex((step) => step.call.name === second) + 1).map((step) => step.call.name),
    )
    expect(byTool.end).toBe('stop_condition')
    const turns = await runEpisode({ env: makeEnv(envId), agent: agentFor('phase-aware-rule'), reset, maxTurns: 1 })
    expect([turns.end, turns.turns.length]).toEqual(['max_turns', 1])
    const twoCalls: Agent = {
      name: 'two-calls',
      start: (start) => {
        const inner = agentFor('phase-aware-rule').start(start)
        return {
          next: async (input) => {
            const reply = await inner.next(input)
            return {
              ...reply,
              toolCalls: [...reply.toolCalls, { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } }],
            }
          },
        }
      },
    }
    const limited = await runEpisode({ env: makeEnv(envId), agent: twoCalls, reset, maxTurns: 2, maxToolCallsPerTurn: 1 })
    expect(limited.steps.map((step) => step.call.name)).not.toContain('hold_release')
  })

  it('an agent with nothing to say ends the episode unfinished (truncated, not a missed deadline)', async () => {
    const silent: Agent = { name: 'silent', start: () => ({ next: async () => answer('I am done.', []) }) }
    const result = await runEpisode({ env: makeEnv(envId), agent: silent, reset })
    expect([result.end, result.terminated, result.truncated, result.info.terminal_reason]).toEqual([
      'no_tool_call',
      false,
      true,
      null,
    ])
  })

  it('a bad call is data the agent sees; an env that throws is a tool fault', async () => {
    const badThenStop: Agent = {
      name: 'bad',
      start: () => ({
        next: async (input) => answer('', input.turn === 0 ? [{ name: 'launch_rocket', arguments: {} }] : []),
      }),
    }
    const result = await runEpisode({ env: makeEnv(envId), agent: badThenStop, reset })
    expect(result.steps[0]).toMatchObject({ error: 'unknown_tool' })
    expect(result.counts.invalid_actions).toBe(1)
    expect(result.trajectory.messages.at(-2)).toMatchObject({
      role: 'tool',
      content: '{"error": {"code": "unknown_tool", "message": "Unknown tool: launch_rocket"}}',
    })
    const env = makeEnv(envId)
    const exploding: Env = {
      ...env,
      spec: env.spec,
      reset: (params) => env.reset(params),
      render: (observation) => env.render(observation),
      state: () => env.state(),
      step: () => {
        throw new Error('disk on fire')
      },
    }
    const faulted = await runEpisode({ env: exploding, agent: agentFor('naive'), reset })
    expect([faulted.end, faulted.fault?.fault, faulted.fault?.code]).toEqual(['tool_error', 'tool', 'tool_exception'])
    expect(faulted.fault?.message).toContain('disk on fire')
  })
})

describe('the episode prompt', () => {
  const spec = envRegistry.spec(envId)

  it("appends the reset text to the row prompt's last message with no separator, as TRL's environment_factory does", () => {
    const row = dataset.rows('eval')[0]!
    const messages = initialMessages({ spec, prompt: row.prompt, resetText: '{"phase": "triage"}' })
    expect(messages).toHaveLength(2)
    expect((messages[1]?.content ?? '').endsWith('decide what to inspect or resolve.{"phase": "triage"}')).toBe(true)
    expect((row.prompt as { content: string }[])[1]?.content.endsWith('resolve.')).toBe(true)
  })

  it('uses the env description without a prompt, and rejects malformed prompts with a coded error', () => {
    expect(initialMessages({ spec, resetText: 'obs' })).toEqual([
      { role: 'system', content: spec.description },
      { role: 'user', content: 'obs' },
    ])
    expect(() => initialMessages({ spec, prompt: [{ role: 'user' }], resetText: 'x' })).toThrow(
      expect.objectContaining({ code: 'invalid_prompt' }),
    )
    expect(() => initialMessages({ spec, prompt: [{ role: 'assistant', content: 'x' }], resetText: 'x' })).toThrow(
      expect.objectContaining({ code: 'invalid_prompt' }),
    )
  })
})
