/**
 * @module agent: one turn's tool calls against the env, in order. Each result becomes a `tool` message
 * (the env's text rendering); a bad call is data the agent sees; an exception from the env is a tool
 * fault that ends the episode. Calls after the episode ended (or a stop condition held) are not run.
 */
import type { ChatMessage, ChatToolCall, ParsedToolCall } from '../chat/chat-message.js'
import type { AnyEnv, StepResult, ToolCall } from '../core/env/env-api.js'
import type { AgentStepRecord, EpisodeFault } from './agent-trajectory.js'
import { isStopConditionMet, type LoopStep, type StopCondition } from './stop-condition.js'

export interface ToolCallsOutcome {
  messages: ChatMessage[]
  steps: AgentStepRecord[]
  last?: StepResult
  /** Set when the episode must stop after this turn. */
  stop?: 'terminated' | 'truncated' | 'stop_condition' | 'tool_error'
  fault?: EpisodeFault
  envMs: number
}

export async function executeToolCalls(options: {
  env: AnyEnv
  turn: number
  calls: readonly ParsedToolCall[]
  ids: readonly ChatToolCall['id'][]
  loopSteps: LoopStep[]
  stopWhen: readonly StopCondition[]
}): Promise<ToolCallsOutcome> {
  const outcome: ToolCallsOutcome = { messages: [], steps: [], envMs: 0 }
  for (const [index, parsed] of options.calls.entries()) {
    const call: ToolCall = { name: parsed.name, arguments: parsed.arguments }
    const started = performance.now()
    let result: StepResult
    let text: string
    try {
      result = await options.env.step(call)
      text = await options.env.render(result.observation)
    } catch (error) {
      outcome.envMs += performance.now() - started
      const code = (error as { code?: unknown }).code
      outcome.fault = {
        fault: 'tool',
        code: typeof code === 'string' ? code : 'tool_exception',
        message: `The env failed on ${parsed.name}: ${error instanceof Error ? error.message : String(error)}`,
      }
      outcome.stop = 'tool_error'
      return outcome
    }
    outcome.envMs += performance.now() - started
    outcome.last = result
    const id = options.ids[index]
    outcome.messages.push({ role: 'tool', content: text, ...(id === undefined ? {} : { tool_call_id: id }), name: parsed.name })
    outcome.steps.push({
      turn: options.turn,
      call,
      reward: result.reward,
      terminated: result.terminated,
      truncated: result.truncated,
      ...(result.observation.error ? { error: result.observation.error.code } : {}),
    })
    options.loopSteps.push({ call, result })
    if (result.terminated) outcome.stop = 'terminated'
    else if (result.truncated) outcome.stop = 'truncated'
    else if (isStopConditionMet(options.stopWhen, options.loopSteps)) outcome.stop = 'stop_condition'
    if (outcome.stop) return outcome
  }
  return outcome
}
