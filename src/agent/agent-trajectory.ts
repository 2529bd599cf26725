/**
 * @module agent: what one agent-loop episode records: the trajectory in the native message format
 * (`qwen3.5-native-tools-v2`: OpenAI messages, tool-call arguments as objects, plus the tools), one
 * record per assistant turn and per env step, totals, timing, and the fault that ended it, if any.
 */
import type { ParseIssue } from '../chat/chat-format.js'
import type { ChatMessage, ChatTool } from '../chat/chat-message.js'
import type { EpisodeInfo, ToolCall } from '../core/env/env-api.js'
import type { TokenUsage } from './chat-model.js'
import type { Fault } from './endpoint-error.js'

/** Why the loop stopped. Everything but `terminated` leaves the episode unfinished (reported as truncated). */
export type AgentEpisodeEnd =
  | 'terminated'
  | 'truncated'
  | 'max_turns'
  | 'stop_condition'
  | 'no_tool_call'
  | 'context_length'
  | 'infra_error'
  | 'tool_error'

export interface TurnRecord {
  turn: number
  latency_ms: number
  first_token_ms: number | null
  attempts: number
  /** Codes of retried failures before the answer (429s, timeouts, …). */
  retried: string[]
  finish_reason: string | null
  usage: TokenUsage | null
  tool_calls: number
  repairs: number
  issues: ParseIssue[]
}

export interface AgentStepRecord {
  turn: number
  call: ToolCall
  reward: number
  terminated: boolean
  truncated: boolean
  /** `error.code` of the observation when the env rejected the call. */
  error?: string
}

export interface EpisodeFault {
  fault: Fault
  code: string
  message: string
  attempts?: number
}

export interface Trajectory {
  format: 'qwen3.5-native-tools-v2'
  messages: ChatMessage[]
  tools: ChatTool[]
}

export interface EpisodeCounts {
  turns: number
  steps: number
  /** Repairs made by the parser (the original's `repaired_actions`). */
  repaired_actions: number
  /** Parse issues that were not repairs, by code. */
  parse_issues: Record<string, number>
  /** Calls the env rejected (unknown tool, bad arguments, impossible action). */
  invalid_actions: number
  /** Turns cut off by `max_tokens`. */
  length_stops: number
  retries: number
}

export interface AgentEpisodeResult {
  trajectory: Trajectory
  reward: number
  terminated: boolean
  /** True whenever the env did not terminate the episode (step limit, max turns, no call, context, fault). */
  truncated: boolean
  end: AgentEpisodeEnd
  resetInfo: EpisodeInfo
  info: EpisodeInfo
  turns: TurnRecord[]
  steps: AgentStepRecord[]
  counts: EpisodeCounts
  usage: {
    prompt_tokens: number
    completion_tokens: number
    total_tokens: number
    source: 'endpoint' | 'tokenizer' | 'mixed' | 'none'
  }
  timing: { total_ms: number; model_ms: number; env_ms: number }
  fault?: EpisodeFault
}
