/**
 * @module agent: the one way eval, the rollout gate and the server's eval jobs build a model: an
 * OpenAI-compatible endpoint (checked to serve the model before any episode, unless told not to), or a
 * local GGUF file. The tokenizer and node-llama-cpp load only when asked for, so a caller that never
 * counts tokens or runs GGUF files never pays for them.
 */

import type { ErrorCode } from '../core/errors/error-code.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import type { ChatModel, ModelMode, SamplingOptions } from './chat-model.js'
import { checkModelEndpoint } from './check-model-endpoint.js'
import { OpenAiCompatibleModel, type OpenAiCompatibleModelOptions } from './openai-compatible-model.js'

/** Endpoint options handed to the model as they are (each is undefined-safe there). */
type PassedThrough =
  | 'apiKey'
  | 'enableThinking'
  | 'chatTemplateKwargs'
  | 'extraBody'
  | 'stream'
  | 'sendReasoning'
  | 'timeoutMs'
  | 'maxConcurrency'
  | 'maxReplyBytes'
  | 'fetch'

export interface ChatModelSettings extends Pick<OpenAiCompatibleModelOptions, PassedThrough> {
  /** An OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1`, and the model it serves. */
  baseUrl?: string
  model?: string
  /** A local GGUF file (a text chat format, never native). */
  gguf?: string
  mode: ModelMode
  temperature?: number
  topP?: number
  topK?: number
  maxTokens?: number
  seed?: number
  /** Retries after a failed attempt; the endpoint client's default when absent. */
  retries?: number
  /** Count tokens with the Qwen3 tokenizer when the endpoint reports no usage. */
  countTokens?: boolean
  /** Ask the endpoint whether it serves the model before any episode (default true). */
  checkEndpoint?: boolean
}

function invalid(code: ErrorCode, message: string): InvalidInputError {
  return new InvalidInputError({ code, message, issues: [] })
}

/** Sampling in one fixed key order (the model identity, and so reports, show it as built). */
function samplingOf(settings: ChatModelSettings): SamplingOptions {
  return {
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
    ...(settings.topP === undefined ? {} : { top_p: settings.topP }),
    ...(settings.topK === undefined ? {} : { top_k: settings.topK }),
    ...(settings.maxTokens === undefined ? {} : { max_tokens: settings.maxTokens }),
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
  }
}

async function ggufModel(path: string, settings: ChatModelSettings): Promise<ChatModel> {
  if (settings.mode === 'native')
    throw invalid(
      'invalid_mode',
      '--gguf runs a chat format (--mode qwen3, qwen3.5, qwen3.5-nothink or json-tool-calls), not native.',
    )
  const { createGgufModel } = await import('./gguf-model.js')
  return createGgufModel({
    path,
    format: settings.mode,
    sampling: samplingOf(settings),
    ...(settings.enableThinking === undefined ? {} : { enableThinking: settings.enableThinking }),
  })
}

export async function createChatModel(settings: ChatModelSettings): Promise<ChatModel> {
  if (settings.gguf) return ggufModel(settings.gguf, settings)
  // Sampling goes in as one object; what is left is the model's own options.
  const { gguf: _gguf, baseUrl, model: name, mode, retries, countTokens, checkEndpoint, ...rest } = settings
  const { temperature: _t, topP: _p, topK: _k, maxTokens: _m, seed: _s, ...passed } = rest
  if (!name || !baseUrl) throw invalid('missing_model', 'An LLM eval needs both --model and --base-url (or --gguf <file>).')
  const tokenCounter = countTokens ? await (await import('./token-counter.js')).qwen3TokenCounter() : undefined
  const model = new OpenAiCompatibleModel({
    ...passed,
    baseUrl,
    model: name,
    mode,
    sampling: samplingOf(settings),
    ...(retries === undefined ? {} : { retry: { maxAttempts: retries + 1 } }),
    ...(tokenCounter ? { tokenCounter } : {}),
  })
  if (checkEndpoint !== false) await checkModelEndpoint(model.client, name)
  return model
}
