/**
 * @module agent: the one agent loop. Reset the env, build the prompt, then turn by turn: ask the agent,
 * append its message, run its tool calls, append their results; stop on the env's end, a stop predicate,
 * max turns, a reply without calls, the context limit, or a fault. Infrastructure faults end the episode
 * as `infra_error` (never a model failure); fatal endpoint errors (bad key, unknown model) are thrown.
 *
 * ```
 * messages = prompt + reset text
 * for turn in 0..maxTurns:
 *   reply = agent.next(messages)          -- EndpointError → infra_error | context_length
 *   messages += reply.message
 *   if no calls: end no_tool_call
 *   for call in reply.calls: step env, messages += tool result; stop on terminated/truncated/predicate
 * ```
 */
import type { ChatMessage } from '../chat/chat-message.js'
import type { AnyEnv, EpisodeInfo, ResetParams, StepResult } from '../core/env/env-api.js'
import type { Agent, AgentTurn } from './agent.js'
import type { AgentEpisodeEnd, AgentEpisodeResult, AgentStepRecord, EpisodeFault, TurnRecord } from './agent-trajectory.js'
import { isEndpointError } from './endpoint-error.js'
import { envTools, initialMessages } from './episode-prompt.js'
import { episodeCounts, episodeUsage } from './episode-totals.js'
import { executeToolCalls } from './execute-tool-calls.js'
import type { LoopStep, StopCondition } from './stop-condition.js'

export interface RunEpisodeOptions {
  env: AnyEnv
  agent: Agent
  reset: ResetParams
  /** The dataset row's prompt messages; the reset observation text is appended to the last one. */
  prompt?: unknown
  /** Extra stop predicates over the steps so far; the env's terminated/truncated always stop the loop. */
  stopWhen?: readonly StopCondition[]
  /** Assistant turns at most (default: the env's step limit). */
  maxTurns?: number
  /** Calls executed per turn at most; later ones are dropped (default: all). */
  maxToolCallsPerTurn?: number
  signal?: AbortSignal
}

function turnRecord(turn: number, reply: AgentTurn): TurnRecord {
  return {
    turn,
    latency_ms: Math.round(reply.latencyMs * 1000) / 1000,
    first_token_ms: reply.firstTokenMs === null ? null : Math.round(reply.firstTokenMs * 1000) / 1000,
    attempts: reply.attempts,
    retried: reply.retried,
    finish_reason: reply.finishReason,
    usage: reply.usage,
    tool_calls: reply.toolCalls.length,
    repairs: reply.repairs,
    issues: reply.issues,
  }
}

export async function runEpisode(options: RunEpisodeOptions): Promise<AgentEpisodeResult> {
  const started = performance.now()
  const { env, agent } = options
  const resetStarted = performance.now()
  const reset = await env.reset(options.reset)
  const resetText = await env.render(reset.observation)
  let envMs = performance.now() - resetStarted
  const tools = envTools(env.spec)
  const messages: ChatMessage[] = initialMessages({ spec: env.spec, prompt: options.prompt, resetText })
  const episode = agent.start({ observation: reset.observation, info: reset.info, spec: env.spec, env })
  const maxTurns = options.maxTurns ?? env.spec.maxEpisodeSteps
  const turns: TurnRecord[] = []
  const steps: AgentStepRecord[] = []
  const loopSteps: LoopStep[] = []
  let observation = reset.observation
  let last: StepResult | undefined
  let modelMs = 0
  let end: AgentEpisodeEnd = 'max_turns'
  let fault: EpisodeFault | undefined
  for (let turn = 0; turn < maxTurns; turn++) {
    let reply: AgentTurn
    const asked = performance.now()
    try {
      reply = await episode.next({ messages, tools, observation, turn, ...(options.signal ? { signal: options.signal } : {}) })
    } catch (error) {
      modelMs += performance.now() - asked
      if (!isEndpointError(error) || error.fatal) throw error
      if (error.fault === 'context_length') end = 'context_length'
      else {
        end = 'infra_error'
        fault = { fault: 'infrastructure', code: error.code, message: error.message, attempts: error.attempts }
      }
      break
    }
    modelMs += performance.now() - asked
    messages.push(reply.message)
    turns.push(turnRecord(turn, reply))
    const calls =
      options.maxToolCallsPerTurn === undefined ? reply.toolCalls : reply.toolCalls.slice(0, options.maxToolCallsPerTurn)
    if (calls.length === 0) {
      end = 'no_tool_call'
      break
    }
    const outcome = await executeToolCalls({
      env,
      turn,
      calls,
      ids: (reply.message.tool_calls ?? []).map((call) => call.id),
      loopSteps,
      stopWhen: options.stopWhen ?? [],
    })
    envMs += outcome.envMs
    messages.push(...outcome.messages)
    steps.push(...outcome.steps)
    if (outcome.last) {
      last = outcome.last
      observation = outcome.last.observation
    }
    if (outcome.stop) {
      end = outcome.stop
      fault = outcome.fault
      break
    }
  }
  const info: EpisodeInfo = last?.info ?? reset.info
  const terminated = last?.terminated === true && end === 'terminated'
  return {
    trajectory: { format: 'qwen3.5-native-tools-v2', messages, tools },
    reward: info.cumulative_reward,
    terminated,
    truncated: !terminated,
    end,
    resetInfo: reset.info,
    info,
    turns,
    steps,
    counts: episodeCounts(turns, steps),
    usage: episodeUsage(turns),
    timing: { total_ms: performance.now() - started, model_ms: modelMs, env_ms: envMs },
    ...(fault ? { fault } : {}),
  }
}
