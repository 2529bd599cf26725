/**
 * @module eval/gate: an agent as an RL rollout drives it. A reply without tool calls is the episode's
 * answer, judged by the answer contract (`envs/grading/final-answer-text.ts`, the rule VeRL's reward
 * applies): the turn's own text as generated, think block and end markers dropped, whitespace stripped.
 * The gate hands that text to the env's final action as a `FinalReply`, which no parsed call can be: a
 * model's own call named like the final action stays a tool call, to a tool the model does not have. Tool
 * schemas can be replaced by what the rollout shows the model (VeRL's reduced schemas), so the gate
 * renders the RL prompt byte for byte.
 */

import type { Agent, AgentTurn } from '../../agent/agent.js'
import type { ChatTool } from '../../chat/chat-message.js'
import type { JsonObject } from '../../core/json/json-value.js'
import { finalAnswerText } from '../../envs/grading/final-answer-text.js'
import { FinalReply } from '../../envs/grading/grading-env.js'

/** The answer text of a reply that made no tool call: its completion as generated, or a native reply's content. */
function replyAnswerText(reply: AgentTurn): string {
  if (reply.completion) return finalAnswerText(reply.completion.text, { openThink: reply.completion.openThink })
  return finalAnswerText(reply.message.content ?? '')
}

export function finalReplyAgent(options: { agent: Agent; finalAction?: string; tools?: readonly ChatTool[] }): Agent {
  const { agent, finalAction, tools } = options
  return {
    name: agent.name,
    ...(agent.identity ? { identity: agent.identity } : {}),
    start(start) {
      const episode = agent.start(start)
      return {
        async next(input) {
          const reply = await episode.next(tools ? { ...input, tools } : input)
          if (finalAction === undefined || reply.toolCalls.length > 0) return reply
          const turn = reply.completion ?? { text: reply.message.content ?? '', openThink: false }
          const final = new FinalReply(replyAnswerText(reply), turn) as unknown as JsonObject
          return { ...reply, toolCalls: [{ name: finalAction, arguments: final }] }
        },
      }
    },
  }
}
