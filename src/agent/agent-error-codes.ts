/** @module agent: the error codes the agent layer throws, checked against its sources by test/error-codes.test.ts. */
export const agentErrorCodes = [
  'context_length_exceeded',
  'endpoint_bad_response',
  'endpoint_not_found',
  'endpoint_redirect',
  'endpoint_rejected',
  'endpoint_reply_too_large',
  'endpoint_status',
  'endpoint_timeout',
  'endpoint_truncated',
  'endpoint_unauthorized',
  'endpoint_unreachable',
  'gguf_not_found',
  'invalid_messages',
  'invalid_mode',
  'invalid_prompt',
  'missing_model',
  'optional_dependency_missing',
  'scripted_conversation_mismatch',
  'unknown_model',
] as const

export type AgentErrorCode = (typeof agentErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    agent: AgentErrorCode
  }
}
