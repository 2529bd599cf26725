/** @module chat: the error codes the chat layer throws, checked against its sources by test/error-codes.test.ts. */
export const chatErrorCodes = ['template_error'] as const

export type ChatErrorCode = (typeof chatErrorCodes)[number]

declare module '../core/errors/error-code.js' {
  interface ErrorCodesByLayer {
    chat: ChatErrorCode
  }
}
