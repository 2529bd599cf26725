/**
 * @module agent: a `ChatModel` over any OpenAI-compatible endpoint (vLLM, SGLang, llama.cpp server,
 * Ollama, hosted APIs), in one of the wire modes:
 * - `native`: `POST /chat/completions` with `tools`; the server's parser returns `tool_calls`;
 * - `qwen3`, `qwen3.5`, `qwen3.5-nothink`: `POST /completions` with the prompt rendered here by the
 *   official template; the completion text is parsed by our parser (exact control of the tokens);
 * - `json-tool-calls`: `POST /chat/completions` without `tools`; the strict JSON prompt, parsed and repaired here.
 */

import type { AssistantMessage } from '../chat/chat-message.js'
import { chatFormat } from '../chat/format-registry.js'
import { jsonToolCallsFormat, toJsonToolCallsMessages } from '../chat/formats/json-tool-calls-format.js'
import type {
  ChatModel,
  GenerateRequest,
  GenerateResult,
  ModelIdentity,
  ModelMode,
  SamplingOptions,
  TokenUsage,
} from './chat-model.js'
import { EndpointClient, type EndpointClientOptions, type EndpointResponse } from './endpoint-client.js'
import { EndpointError } from './endpoint-error.js'
import { choiceOf, endpointUsage, validChat, validCompletion } from './response-body.js'
import type { TokenCounter } from './token-counter.js'
import { assistantTurnIndex, fromWireMessage, toolCallId, toWireMessages } from './wire-messages.js'

export interface OpenAiCompatibleModelOptions extends EndpointClientOptions {
  model: string
  mode?: ModelMode
  sampling?: SamplingOptions
  /** Sent as `chat_template_kwargs.enable_thinking` (native, json) and used when rendering (text modes). */
  enableThinking?: boolean
  chatTemplateKwargs?: Record<string, unknown>
  /** Merged into every request body (server-specific parameters). */
  extraBody?: Record<string, unknown>
  stream?: boolean
  /** Counts tokens when the endpoint reports no usage. */
  tokenCounter?: TokenCounter
  /** A client shared with other models (its concurrency bound is shared too). */
  client?: EndpointClient
  /** Send earlier turns' `reasoning_content` back (native mode; default true). */
  sendReasoning?: boolean
}

export class OpenAiCompatibleModel implements ChatModel {
  readonly identity: ModelIdentity
  readonly client: EndpointClient
  private readonly mode: ModelMode

  constructor(private readonly options: OpenAiCompatibleModelOptions) {
    this.mode = options.mode ?? 'native'
    if (this.mode !== 'native') chatFormat(this.mode)
    this.client = options.client ?? new EndpointClient(options)
    this.identity = {
      model: options.model,
      mode: this.mode,
      base_url: this.client.baseUrl,
      sampling: { ...options.sampling },
      ...(options.enableThinking === undefined ? {} : { enable_thinking: options.enableThinking }),
      ...(options.chatTemplateKwargs ? { chat_template_kwargs: options.chatTemplateKwargs } : {}),
      stream: options.stream ?? false,
    }
  }

  private baseBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { model: this.options.model, ...this.options.sampling }
    if (this.options.stream) {
      body.stream = true
      body.stream_options = { include_usage: true }
    }
    return body
  }

  private templateKwargs(): Record<string, unknown> | undefined {
    const kwargs = { ...this.options.chatTemplateKwargs }
    if (this.options.enableThinking !== undefined) kwargs.enable_thinking = this.options.enableThinking
    return Object.keys(kwargs).length > 0 ? kwargs : undefined
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    if (this.mode === 'native') return this.generateNative(request)
    if (this.mode === 'json-tool-calls') return this.generateJson(request)
    return this.generateText(request)
  }

  /** `POST /chat/completions`: the shared body (sampling, template kwargs, extra body) around these fields. */
  private postChat(request: GenerateRequest, fields: Record<string, unknown>) {
    const kwargs = this.templateKwargs()
    return this.client.post({
      path: '/chat/completions',
      body: { ...this.baseBody(), ...fields, ...(kwargs ? { chat_template_kwargs: kwargs } : {}), ...this.options.extraBody },
      kind: 'chat',
      validate: validChat,
      ...(request.signal ? { signal: request.signal } : {}),
    })
  }

  private async generateNative(request: GenerateRequest): Promise<GenerateResult> {
    const response = await this.postChat(request, {
      messages: toWireMessages(request.messages, { reasoning: this.options.sendReasoning !== false }),
      ...(request.tools.length > 0 ? { tools: request.tools, tool_choice: 'auto' } : {}),
    })
    const choice = choiceOf(response)
    const wire = choice.message
    if (wire === null || typeof wire !== 'object')
      throw new EndpointError({ code: 'endpoint_bad_response', message: 'The choice has no message.', retryable: true })
    const mapped = fromWireMessage({
      message: wire as Record<string, unknown>,
      tools: request.tools,
      turn: assistantTurnIndex(request.messages),
    })
    // Without reported usage, count what the Qwen3 template would have rendered (an estimate for other templates).
    const qwen3 = chatFormat('qwen3')
    const usage =
      endpointUsage(response.body) ??
      this.countedUsage(
        () => qwen3.render({ messages: request.messages, tools: request.tools, addGenerationPrompt: true }),
        () => qwen3.formatAssistant(mapped.message),
      )
    return this.result(response, choice, usage, { ...mapped, repairs: 0 })
  }

  private async generateJson(request: GenerateRequest): Promise<GenerateResult> {
    const response = await this.postChat(request, { messages: toJsonToolCallsMessages(request.messages, request.tools) })
    const choice = choiceOf(response)
    const wire = (choice.message ?? {}) as Record<string, unknown>
    const text = typeof wire.content === 'string' ? wire.content : ''
    const parsed = jsonToolCallsFormat.parse(text, { tools: request.tools })
    const serverReasoning =
      typeof wire.reasoning_content === 'string'
        ? wire.reasoning_content
        : typeof wire.reasoning === 'string'
          ? wire.reasoning
          : null
    const message = this.assistantMessage({
      content: parsed.content,
      reasoning: serverReasoning ?? parsed.reasoning,
      parsed,
      turn: assistantTurnIndex(request.messages),
    })
    const usage =
      endpointUsage(response.body) ??
      this.countedUsage(
        () => jsonToolCallsFormat.render({ messages: request.messages, tools: request.tools, addGenerationPrompt: true }),
        () => text,
      )
    return this.result(response, choice, usage, { ...parsed, message })
  }

  private async generateText(request: GenerateRequest): Promise<GenerateResult> {
    const format = chatFormat(this.mode)
    const prompt = format.render({
      messages: request.messages,
      tools: request.tools,
      addGenerationPrompt: true,
      ...(this.options.enableThinking === undefined ? {} : { enableThinking: this.options.enableThinking }),
    })
    const body = { ...this.baseBody(), prompt, stop: [...format.stop], ...this.options.extraBody }
    const response = await this.client.post({
      path: '/completions',
      body,
      kind: 'completion',
      validate: validCompletion,
      ...(request.signal ? { signal: request.signal } : {}),
    })
    const choice = choiceOf(response)
    if (typeof choice.text !== 'string')
      throw new EndpointError({ code: 'endpoint_bad_response', message: 'The completion choice has no text.', retryable: true })
    const openThink = format.opensThink(this.options.enableThinking)
    const parsed = format.parse(choice.text, { tools: request.tools, openThink })
    const message = this.assistantMessage({
      content: parsed.content,
      reasoning: parsed.reasoning,
      parsed,
      turn: assistantTurnIndex(request.messages),
    })
    const usage =
      endpointUsage(response.body) ??
      this.countedUsage(
        () => prompt,
        () => choice.text as string,
      )
    return { ...this.result(response, choice, usage, { ...parsed, message }), completion: { text: choice.text, openThink } }
  }

  private assistantMessage(options: {
    content: string | null
    reasoning: string | null
    parsed: { toolCalls: GenerateResult['toolCalls'] }
    turn: number
  }): AssistantMessage {
    const message: AssistantMessage = { role: 'assistant', content: options.content ?? '' }
    if (options.reasoning !== null) message.reasoning_content = options.reasoning
    if (options.parsed.toolCalls.length > 0) {
      message.tool_calls = options.parsed.toolCalls.map((call, index) => ({
        id: toolCallId(options.turn, index),
        type: 'function' as const,
        function: { name: call.name, arguments: call.arguments },
      }))
    }
    return message
  }

  private countedUsage(prompt: () => string, completion: () => string): TokenUsage | null {
    const counter = this.options.tokenCounter
    if (!counter) return null
    const promptTokens = counter.count(prompt())
    const completionTokens = counter.count(completion())
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      source: 'tokenizer',
    }
  }

  /** The turn's answer (`outcome`) with what the endpoint reported about the exchange. */
  private result(
    response: EndpointResponse,
    choice: Record<string, unknown>,
    usage: TokenUsage | null,
    outcome: Pick<GenerateResult, 'message' | 'toolCalls' | 'issues' | 'repairs'>,
  ): GenerateResult {
    return {
      message: outcome.message,
      toolCalls: outcome.toolCalls,
      issues: outcome.issues,
      repairs: outcome.repairs,
      finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
      usage,
      latencyMs: response.latencyMs,
      firstTokenMs: response.firstTokenMs,
      attempts: response.attempts,
      retried: response.retried,
    }
  }
}
