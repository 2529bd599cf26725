/**
 * @module agent: the agent contract the loop drives. An agent starts an episode and then, turn by turn,
 * answers the conversation so far with an assistant message. Model-driven agents wrap a `ChatModel`;
 * hand-written policies (baselines, oracle) are agents too, so both share one loop and one trajectory format.
 */
import type { ChatMessage, ChatTool } from '../chat/chat-message.js'
import type { AnyEnv, EnvSpec, EpisodeInfo, Observation } from '../core/env/env-api.js'
import type { GenerateResult, ModelIdentity } from './chat-model.js'

export interface AgentStart {
  observation: Observation
  info: EpisodeInfo
  spec: EnvSpec
  env: AnyEnv
}

export interface AgentTurnInput {
  messages: readonly ChatMessage[]
  tools: readonly ChatTool[]
  /** The env's latest observation object (policies read it; models read the messages). */
  observation: Observation
  /** 0 for the first assistant turn. */
  turn: number
  signal?: AbortSignal
}

/** One assistant turn: the same record whether a model or a policy produced it. */
export type AgentTurn = GenerateResult

export interface AgentEpisode {
  next(input: AgentTurnInput): Promise<AgentTurn>
}

export interface Agent {
  readonly name: string
  /** Present for model-driven agents: who answered, for reports and resume checks. */
  readonly identity?: ModelIdentity
  start(start: AgentStart): AgentEpisode
}
