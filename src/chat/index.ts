/** @module chat: chat formats (official templates, our parsers) and the chat message schemas. */
export type {
  ChatFormat,
  FormatAssistantOptions,
  ParseIssue,
  ParseIssueCode,
  ParseOptions,
  ParseResult,
  RenderOptions,
} from './chat-format.js'
export {
  type AssistantMessage,
  type ChatMessage,
  type ChatTool,
  type ChatToolCall,
  chatMessageSchema,
  chatToolSchema,
  nativeTrajectoryFormat,
  type ParsedToolCall,
  renderRequestSchema,
  type ToolMessage,
} from './chat-message.js'
export { type ChatFormatId, chatFormat, chatFormatIds, isChatFormatId } from './format-registry.js'
export { jsonToolCallsFormat, toJsonToolCallsMessages } from './formats/json-tool-calls-format.js'
export { qwen3Format } from './formats/qwen3-format.js'
export { qwen35Format, qwen35NothinkFormat } from './formats/qwen35-format.js'
