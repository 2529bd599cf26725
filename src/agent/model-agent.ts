/** @module agent: an agent whose turns come from a `ChatModel`. */
import type { Agent } from './agent.js'
import type { ChatModel } from './chat-model.js'

export function modelAgent(model: ChatModel, name: string = model.identity.model): Agent {
  return {
    name,
    identity: model.identity,
    start: () => ({
      next: (input) =>
        model.generate({ messages: input.messages, tools: input.tools, ...(input.signal ? { signal: input.signal } : {}) }),
    }),
  }
}
