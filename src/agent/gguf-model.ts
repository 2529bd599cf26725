/**
 * @module agent: a local GGUF model through `node-llama-cpp` (3.21.1, an optional peer dependency: its
 * platform binaries are large, so it is installed only by users who pass `--gguf <file>`). Prompts are
 * rendered by our chat format and completed as raw text, exactly as the text wire modes do over HTTP.
 */
import { access } from 'node:fs/promises'
import type { ChatFormatId } from '../chat/format-registry.js'
import { chatFormat } from '../chat/format-registry.js'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import type { ChatModel, GenerateRequest, GenerateResult, ModelIdentity, SamplingOptions } from './chat-model.js'
import { assistantTurnIndex, toolCallId } from './wire-messages.js'

const nodeLlamaCppVersion = '3.21.1'

export interface GgufModelOptions {
  path: string
  /** A text chat format the model was trained on (default qwen3). */
  format?: ChatFormatId
  sampling?: SamplingOptions
  enableThinking?: boolean
  contextSize?: number
  /** For tests: how the optional package is loaded. */
  importModule?: (name: string) => Promise<unknown>
}

interface LlamaModule {
  getLlama(): Promise<{ loadModel(options: { modelPath: string }): Promise<LlamaModelHandle> }>
  LlamaCompletion: new (options: {
    contextSequence: unknown
  }) => {
    generateCompletionWithMeta(
      input: unknown,
      options: Record<string, unknown>,
    ): Promise<{ response: string; metadata: { stopReason?: string } }>
  }
}
interface LlamaModelHandle {
  tokenize(text: string, specialTokens?: boolean): unknown[]
  createContext(options: { contextSize?: number }): Promise<{ getSequence(): unknown }>
  dispose?(): Promise<void>
}

/** Loads `node-llama-cpp` on demand; a clear coded error tells the user how to install it. */
export async function loadNodeLlamaCpp(
  importModule: (name: string) => Promise<unknown> = (name) => import(name),
): Promise<LlamaModule> {
  try {
    return (await importModule('node-llama-cpp')) as LlamaModule
  } catch (error) {
    throw new ReleaseOpsError({
      code: 'optional_dependency_missing',
      message: `--gguf needs the optional package node-llama-cpp. Install it with: npm install node-llama-cpp@${nodeLlamaCppVersion}`,
      cause: error,
    })
  }
}

export async function createGgufModel(options: GgufModelOptions): Promise<ChatModel> {
  const formatId = options.format ?? 'qwen3'
  const format = chatFormat(formatId)
  try {
    await access(options.path)
  } catch {
    throw new ReleaseOpsError({ code: 'gguf_not_found', path: options.path, message: `No GGUF model file at ${options.path}.` })
  }
  const llamaCpp = await loadNodeLlamaCpp(options.importModule)
  const llama = await llamaCpp.getLlama()
  const model = await llama.loadModel({ modelPath: options.path })
  const context = await model.createContext(options.contextSize === undefined ? {} : { contextSize: options.contextSize })
  const completion = new llamaCpp.LlamaCompletion({ contextSequence: context.getSequence() })
  const sampling = options.sampling ?? {}
  const identity: ModelIdentity = {
    model: options.path.split(/[\\/]/).at(-1) ?? options.path,
    mode: formatId,
    gguf: options.path,
    sampling: { ...sampling },
    ...(options.enableThinking === undefined ? {} : { enable_thinking: options.enableThinking }),
  }
  return {
    identity,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const started = performance.now()
      const prompt = format.render({
        messages: request.messages,
        tools: request.tools,
        addGenerationPrompt: true,
        ...(options.enableThinking === undefined ? {} : { enableThinking: options.enableThinking }),
      })
      const tokens = model.tokenize(prompt, true)
      const { response, metadata } = await completion.generateCompletionWithMeta(tokens, {
        ...(sampling.max_tokens === undefined ? {} : { maxTokens: sampling.max_tokens }),
        ...(sampling.temperature === undefined ? {} : { temperature: sampling.temperature }),
        ...(sampling.top_k === undefined ? {} : { topK: sampling.top_k }),
        ...(sampling.top_p === undefined ? {} : { topP: sampling.top_p }),
        ...(sampling.min_p === undefined ? {} : { minP: sampling.min_p }),
        stopGenerationTriggers: format.stop.map((stop) => [stop]),
        ...(request.signal ? { signal: request.signal } : {}),
      })
      const openThink = format.opensThink(options.enableThinking)
      const parsed = format.parse(response, { tools: request.tools, openThink })
      const turn = assistantTurnIndex(request.messages)
      const message: GenerateResult['message'] = { role: 'assistant', content: parsed.content ?? '' }
      if (parsed.reasoning !== null) message.reasoning_content = parsed.reasoning
      if (parsed.toolCalls.length > 0) {
        message.tool_calls = parsed.toolCalls.map((call, index) => ({
          id: toolCallId(turn, index),
          type: 'function' as const,
          function: call,
        }))
      }
      const promptTokens = tokens.length
      const completionTokens = model.tokenize(response, false).length
      return {
        message,
        toolCalls: parsed.toolCalls,
        issues: parsed.issues,
        repairs: parsed.repairs,
        finishReason: metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          source: 'tokenizer',
        },
        latencyMs: performance.now() - started,
        firstTokenMs: null,
        attempts: 1,
        retried: [],
        completion: { text: response, openThink },
      }
    },
    async close() {
      await model.dispose?.()
    },
  }
}
