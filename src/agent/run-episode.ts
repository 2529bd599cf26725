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
import type { AnyEnv, EpisodeInfo, Observation, ResetParams, StepResult } from '../core/env/env-api.js'
import type { Agent, AgentEpisode, AgentTurn } from './agent.js'
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

/** How a failed model call ends the episode: the context limit or an infrastructure fault; a fatal error is thrown. */
export function endOfFailedTurn(error: unknown): { end: AgentEpisodeEnd; fault?: EpisodeFault } {
  if (!isEndpointError(error) || error.fatal) throw error
  if (error.fault === 'context_length') return { end: 'context_length' }
  return {
    end: 'infra_error',
    fault: { fault: 'infrastructure', code: error.code, message: error.message, attempts: error.attempts },
  }
}

/** The calls of a turn that are executed: the first `max` (all without a limit). */
export function callsToRun(reply: AgentTurn, max: number | undefined): AgentTurn['toolCalls'] {
  return max === undefined ? reply.toolCalls : reply.toolCalls.slice(0, max)
}

/** What the loop carries from turn to turn. */
interface EpisodeLoop {
  readonly messages: ChatMessage[]
  readonly tools: ReturnType<typeof envTools>
  readonly turns: TurnRecord[]
  readonly steps: AgentStepRecord[]
  readonly loopSteps: LoopStep[]
  observation: Observation
  last: StepResult | undefined
  modelMs: number
  envMs: number
  end: AgentEpisodeEnd
  fault: EpisodeFault | undefined
}

/** Asks the agent for one turn and runs its calls; false when the episode ends. */
async function playTurn(loop: EpisodeLoop, episode: AgentEpisode, options: RunEpisodeOptions, turn: number): Promise<boolean> {
  let reply: AgentTurn
  const asked = performance.now()
  try {
    const { messages, tools, observation } = loop
    reply = await episode.next({ messages, tools, observation, turn, ...(options.signal ? { signal: options.signal } : {}) })
  } catch (error) {
    loop.modelMs += performance.now() - asked
    const ended = endOfFailedTurn(error)
    loop.end = ended.end
    if (ended.fault) loop.fault = ended.fault
    return false
  }
  loop.modelMs += performance.now() - asked
  loop.messages.push(reply.message)
  loop.turns.push(turnRecord(turn, reply))
  const calls = callsToRun(reply, options.maxToolCallsPerTurn)
  if (calls.length === 0) {
    loop.end = 'no_tool_call'
    return false
  }
  const outcome = await executeToolCalls({
    env: options.env,
    turn,
    calls,
    ids: (reply.message.tool_calls ?? []).map((call) => call.id),
    loopSteps: loop.loopSteps,
    stopWhen: options.stopWhen ?? [],
  })
  loop.envMs += outcome.envMs
  loop.messages.push(...outcome.messages)
  loop.steps.push(...outcome.steps)
  if (outcome.last) {
    loop.last = outcome.last
    loop.observation = outcome.last.observation
  }
  if (!outcome.stop) return true
  loop.end = outcome.stop
  loop.fault = outcome.fault
  return false
}

/** The episode's result from the finished loop. */
function episodeResult(loop: EpisodeLoop, resetInfo: EpisodeInfo, started: number): AgentEpisodeResult {
  const { last, end, fault, messages, tools, turns, steps } = loop
  const info: EpisodeInfo = last?.info ?? resetInfo
  const terminated = last?.terminated === true && end === 'terminated'
  return {
    trajectory: { format: 'qwen3.5-native-tools-v2', messages, tools },
    reward: info.cumulative_reward,
    terminated,
    truncated: !terminated,
    end,
    resetInfo,
    info,
    turns,
    steps,
    counts: episodeCounts(turns, steps),
    usage: episodeUsage(turns),
    timing: { total_ms: performance.now() - started, model_ms: loop.modelMs, env_ms: loop.envMs },
    ...(fault ? { fault } : {}),
  }
}

export async function runEpisode(options: RunEpisodeOptions): Promise<AgentEpisodeResult> {
  const started = performance.now()
  const { env, agent } = options
  const resetStarted = performance.now()
  const reset = await env.reset(options.reset)
  const resetText = await env.render(reset.observation)
  const envMs = performance.now() - resetStarted
  const tools = envTools(env.spec)
  const messages: ChatMessage[] = initialMessages({ spec: env.spec, prompt: options.prompt, resetText })
  const episode = agent.start({ observation: reset.observation, info: reset.info, spec: env.spec, env })
  const maxTurns = options.maxTurns ?? env.spec.maxEpisodeSteps
  const loop: EpisodeLoop = {
    messages,
    tools,
    turns: [],
    steps: [],
    loopSteps: [],
    observation: reset.observation,
    last: undefined,
    modelMs: 0,
    envMs,
    end: 'max_turns',
    fault: undefined,
  }
  for (let turn = 0; turn < maxTurns; turn++) if (!(await playTurn(loop, episode, options, turn))) break
  return episodeResult(loop, reset.info, started)
}
