/**
 * @module eval/gate: an agent as an RL rollout drives it. A reply without tool calls is the episode's
 * answer: VeRL scores the final assistant text, so the gate hands that text to the env's reserved final
 * action (`final_response {content}`), which judges it. Tool schemas can be replaced by what the rollout
 * shows the model (VeRL's reduced schemas), so the gate renders the RL prompt byte for byte.
 */

import type { Agent } from '../../agent/agent.js'
import type { ChatTool } from '../../chat/chat-message.js'

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
          return { ...reply, toolCalls: [{ name: finalAction, arguments: { content: reply.message.content ?? '' } }] }
        },
      }
    },
  }
}
