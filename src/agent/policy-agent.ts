/**
 * @module agent: a hand-written policy as an agent: one call per turn, read from the observation object,
 * written as a native assistant message. Running a baseline through the agent loop gives trajectories in
 * the same format a model produces (SFT data, or the in-process side of an HTTP parity test).
 */
import type { AssistantMessage } from '../chat/chat-message.js'
import type { Env } from '../core/env/env-api.js'
import type { JsonObject } from '../core/json/json-value.js'
import type { Policy } from '../core/policy/policy.js'
import type { Agent } from './agent.js'
import { toolCallId } from './wire-messages.js'

/** The content of the assistant message a policy writes when it has nothing more to do. */
export const policyDoneContent = 'Done.'

export function policyAgent(policy: Policy): Agent {
  return {
    name: policy.name,
    start(start) {
      const episode = policy.start({ observation: start.observation, info: start.info, spec: start.spec, env: start.env as Env })
      return {
        async next(input) {
          const call = episode.act(input.observation)
          const message: AssistantMessage = { role: 'assistant', content: call === null ? policyDoneContent : '' }
          const toolCalls = call === null ? [] : [{ name: call.name, arguments: toArguments(call.arguments) }]
          if (toolCalls.length > 0) {
            message.tool_calls = toolCalls.map((item, index) => ({
              id: toolCallId(input.turn, index),
              type: 'function' as const,
              function: item,
            }))
          }
          return {
            message,
            toolCalls,
            issues: [],
            repairs: 0,
            finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
            usage: null,
            latencyMs: 0,
            firstTokenMs: null,
            attempts: 1,
            retried: [],
          }
        },
      }
    },
  }
}

function toArguments(value: unknown): JsonObject | string {
  if (value === undefined) return {}
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as JsonObject
  return JSON.stringify(value)
}
