/**
 * @module agent: the model contract. A `ChatModel` turns our messages + tools into the next assistant
 * message, whatever the wire (native `tools`, raw text completion with a chat format, a local GGUF).
 * What the model got wrong comes back as data (`issues`); what the endpoint got wrong is thrown as an
 * `EndpointError`.
 */
import type { ParseIssue } from '../chat/chat-format.js'
import type { AssistantMessage, ChatMessage, ChatTool, ParsedToolCall } from '../chat/chat-message.js'
import { type ChatFormatId, chatFormatIds } from '../chat/format-registry.js'

/** `native`: the endpoint's own tool calling; a format id: we render and parse text in that format. */
export type ModelMode = 'native' | ChatFormatId
export const modelModes: readonly ModelMode[] = ['native', ...chatFormatIds]
/** The one `--mode` default (eval, gate rollout): the endpoint's own tool calling. */
export const defaultModelMode: ModelMode = 'native'

export interface TokenUsage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
  /** `endpoint`: reported by the server; `tokenizer`: counted here with the Qwen3 tokenizer. */
  source: 'endpoint' | 'tokenizer'
}

export interface SamplingOptions {
  temperature?: number
  top_p?: number
  top_k?: number
  max_tokens?: number
  seed?: number
  presence_penalty?: number
  frequency_penalty?: number
  repetition_penalty?: number
  min_p?: number
}

export interface GenerateRequest {
  messages: readonly ChatMessage[]
  tools: readonly ChatTool[]
  signal?: AbortSignal
}

export interface GenerateResult {
  /** The assistant message in our native form (arguments decoded where they could be). */
  message: AssistantMessage
  toolCalls: ParsedToolCall[]
  issues: ParseIssue[]
  repairs: number
  /** `stop`, `tool_calls`, `length` (cut off by max_tokens), … */
  finishReason: string | null
  usage: TokenUsage | null
  latencyMs: number
  firstTokenMs: number | null
  attempts: number
  /** Codes of the failed attempts that were retried before this answer. */
  retried: string[]
  /**
   * Text modes: the completion as the model generated it, and whether the prompt left it inside an open
   * `<think>` (what an RL trainer decodes and scores; native replies have only the endpoint's parse).
   */
  completion?: { text: string; openThink: boolean }
}

/** Who the model is, for reports, gates and resume checks. */
export interface ModelIdentity {
  model: string
  mode: ModelMode
  base_url?: string
  gguf?: string
  sampling: SamplingOptions
  enable_thinking?: boolean
  chat_template_kwargs?: Record<string, unknown>
  stream?: boolean
}

export interface ChatModel {
  readonly identity: ModelIdentity
  generate(request: GenerateRequest): Promise<GenerateResult>
  close?(): Promise<void>
}
