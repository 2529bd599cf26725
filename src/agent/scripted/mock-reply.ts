/**
 * @module agent/scripted: one mock-endpoint answer: decode the request (native chat, chat in a text format,
 * or a raw prompt), let the scripted model reply, and write the reply the way that wire expects it.
 */
import { createHash } from 'node:crypto'
import type { ChatFormat } from '../../chat/chat-format.js'
import { type AssistantMessage, assistantWithCalls, type ChatMessage } from '../../chat/chat-message.js'
import { chatFormat } from '../../chat/format-registry.js'
import type { ErrorCode } from '../../core/errors/error-code.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { TokenCounter } from '../token-counter.js'
import { toolCallId } from '../wire-messages.js'
import { decodeChatMessages, decodeChatMlPrompt } from './decode-conversation.js'
import type { ChatReplyBody, MockUsage } from './mock-responses.js'
import type { ScriptedPolicyModel, ScriptedReply } from './scripted-policy-model.js'

export interface ReplyRequest {
  route: 'chat' | 'completion'
  body: Record<string, unknown>
  format: ChatFormat
  model: ScriptedPolicyModel
  tokenCounter?: TokenCounter
}

export interface MockReply {
  /** Hash of the request's conversation: response and tool-call ids derive from it. */
  seed: string
  chat: ChatReplyBody
  text: string
  usage: MockUsage | null
}

function badRequest(code: ErrorCode, message: string): ReleaseOpsError {
  return new ReleaseOpsError({ code, message })
}

function asMessage(reply: ScriptedReply, turn: number): AssistantMessage {
  return assistantWithCalls({
    content: reply.content,
    reasoning: reply.reasoning,
    calls: reply.calls,
    ids: reply.calls.map((_, index) => toolCallId(turn, index)),
  })
}

function usageOf(counter: TokenCounter | undefined, prompt: () => string, completion: string): MockUsage | null {
  if (!counter) return null
  let promptTokens = 0
  try {
    promptTokens = counter.count(prompt())
  } catch {
    promptTokens = 0
  }
  const completionTokens = counter.count(completion)
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }
}

export function replyFor(request: ReplyRequest): MockReply {
  const { body, format, model } = request
  if (request.route === 'completion') {
    const prompt = Array.isArray(body.prompt) && body.prompt.length === 1 ? body.prompt[0] : body.prompt
    if (typeof prompt !== 'string') throw badRequest('invalid_prompt', '"prompt" must be a string.')
    const decoded = decodeChatMlPrompt({ prompt, format, tools: model.tools })
    const reply = model.reply(decoded)
    const message = asMessage(reply, decoded.turns.length)
    const text = format.formatAssistant(message, {
      openThink: decoded.openThink,
      thinkingDisabled: decoded.thinkingDisabled,
      tools: model.tools,
    })
    const seed = createHash('sha256').update(prompt).digest('hex')
    return {
      seed,
      chat: { content: text, reasoning: null, calls: [] },
      text,
      usage: usageOf(request.tokenCounter, () => prompt, text),
    }
  }
  const messages = body.messages
  if (!Array.isArray(messages) || messages.some((item) => item === null || typeof item !== 'object')) {
    throw badRequest('invalid_messages', '"messages" must be a list of message objects.')
  }
  const native = Array.isArray(body.tools) && body.tools.length > 0
  const decoded = decodeChatMessages({
    messages: messages as Record<string, unknown>[],
    format: native ? null : format,
    tools: model.tools,
  })
  const thinkingOff = (body.chat_template_kwargs as { enable_thinking?: unknown } | undefined)?.enable_thinking === false
  const reply = model.reply(decoded)
  const reasoning = thinkingOff ? null : reply.reasoning
  const seed = createHash('sha256').update(JSON.stringify(messages)).digest('hex')
  const qwen3 = chatFormat('qwen3')
  const promptText = () =>
    qwen3.render({ messages: messages as ChatMessage[], tools: native ? (body.tools as never) : null, addGenerationPrompt: true })
  if (native) {
    const chat = { content: reply.calls.length > 0 ? null : reply.content, reasoning, calls: reply.calls }
    const completion = qwen3.formatAssistant(asMessage({ ...reply, reasoning }, decoded.turns.length), {
      thinkingDisabled: reasoning === null,
    })
    return { seed, chat, text: '', usage: usageOf(request.tokenCounter, promptText, completion) }
  }
  const content = format.formatAssistant(asMessage({ ...reply, reasoning: null }, decoded.turns.length), {
    thinkingDisabled: true,
    tools: model.tools,
  })
  return {
    seed,
    chat: { content, reasoning, calls: [] },
    text: content,
    usage: usageOf(request.tokenCounter, promptText, content),
  }
}
