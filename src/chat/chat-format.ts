/**
 * @module chat: the chat-format contract. A format renders messages + tools to the model's prompt text
 * and parses model text back into `{content, reasoning, toolCalls, issues}`. Parsers never throw:
 * everything that is wrong with the text comes back as an issue with a stable code.
 */
import type { AssistantMessage, ChatMessage, ChatTool, ParsedToolCall } from './chat-message.js'

/** Stable parse-issue codes. `repaired` issues were fixed (and counted); the others lose or taint a call. */
export type ParseIssueCode =
  | 'unterminated_think'
  | 'unterminated_tool_call'
  | 'unterminated_function'
  | 'unterminated_parameter'
  | 'invalid_json'
  | 'missing_name'
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'unknown_parameter'
  | 'invalid_argument_type'
  | 'duplicate_parameter'
  | 'text_after_tool_call'
  | 'stray_tag'
  | 'no_tool_call'
  | 'too_many_tool_calls'
  // json-tool-calls repairs (each counted in `repairs`)
  | 'code_fence'
  | 'text_around_json'
  | 'missing_wrapper'
  | 'key_alias'
  | 'string_arguments'
  | 'flat_arguments'
  | 'regex_extracted'
  | 'coerced_argument'
  | 'single_quotes'
  | 'trailing_comma'

export interface ParseIssue {
  code: ParseIssueCode
  message: string
  /** Which call or parameter: `tool_calls.0.arguments.limit`. */
  path?: string
  /** The parser fixed it; the call is usable and the repair is counted. */
  repaired?: boolean
}

export interface ParseResult {
  /** Text outside reasoning and tool calls; null when empty. */
  content: string | null
  reasoning: string | null
  toolCalls: ParsedToolCall[]
  issues: ParseIssue[]
  /** How many issues were repairs (the original's `repaired_actions`). */
  repairs: number
}

export interface RenderOptions {
  messages: readonly ChatMessage[]
  tools?: readonly ChatTool[] | null | undefined
  addGenerationPrompt?: boolean
  /** Undefined leaves the template's default (thinking on for qwen3 and qwen3.5, off for qwen3.5-nothink). */
  enableThinking?: boolean
}

export interface ParseOptions {
  tools?: readonly ChatTool[] | null
  /** The prompt ended inside an open `<think>` (a think-template generation prompt): text starts as reasoning. */
  openThink?: boolean
}

export interface FormatAssistantOptions {
  /** Leave out the `<think>\n` the generation prompt already holds. */
  openThink?: boolean
  /** Thinking was disabled: the generation prompt holds an empty think block, so the reply has none. */
  thinkingDisabled?: boolean
  tools?: readonly ChatTool[] | null
}

export interface ChatFormat {
  /** Its key in the format registry (`format-registry.ts`), e.g. `qwen3.5`. */
  readonly id: string
  /** Strings that end a completion (sent as `stop` in raw-text mode). */
  readonly stop: readonly string[]
  render(options: RenderOptions): string
  parse(text: string, options?: ParseOptions): ParseResult
  /** The completion text a model produces for this assistant message (what a scripted model speaks). */
  formatAssistant(message: AssistantMessage, options?: FormatAssistantOptions): string
  /** Whether a generation prompt rendered with these options ends inside an open `<think>`. */
  opensThink(enableThinking: boolean | undefined): boolean
}
