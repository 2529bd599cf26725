/** The optional GGUF path: a coded error without node-llama-cpp, and the text wire with a stand-in llama module. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createGgufModel, loadNodeLlamaCpp } from './gguf-model.js'

const file = join(mkdtempSync(join(tmpdir(), 'gguf-')), 'model.gguf')
writeFileSync(file, 'GGUF')

describe('GGUF models', () => {
  it('without node-llama-cpp installed, says how to install the pinned version', async () => {
    const error = await loadNodeLlamaCpp().catch((caught: unknown) => caught)
    expect(error).toMatchObject({
      code: 'optional_dependency_missing',
      message: expect.stringContaining('npm install node-llama-cpp@3.21.1'),
    })
  })

  it('a missing model file is a coded error before anything loads', async () => {
    await expect(createGgufModel({ path: `${file}.missing` })).rejects.toMatchObject({ code: 'gguf_not_found' })
  })

  it('renders the prompt with the format, completes raw text with the format stops, and parses the reply', async () => {
    const seen: { tokens?: unknown; options?: Record<string, unknown> } = {}
    const fakeModule = {
      getLlama: async () => ({
        loadModel: async () => ({
          tokenize: (text: string) => Array.from(text),
          createContext: async () => ({ getSequence: () => 'sequence' }),
        }),
      }),
      LlamaCompletion: class {
        async generateCompletionWithMeta(tokens: unknown, options: Record<string, unknown>) {
          seen.tokens = tokens
          seen.options = options
          return {
            response: '<think>\nok\n</think>\n\n<tool_call>\n{"name": "hold", "arguments": {}}\n</tool_call>',
            metadata: { stopReason: 'maxTokens' },
          }
        }
      },
    }
    const model = await createGgufModel({
      path: file,
      format: 'qwen3',
      sampling: { max_tokens: 64, temperature: 0.6 },
      importModule: async () => fakeModule,
    })
    const result = await model.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
    expect((seen.tokens as string[]).join('')).toBe('<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n')
    expect(seen.options).toMatchObject({
      maxTokens: 64,
      temperature: 0.6,
      stopGenerationTriggers: [['<|im_end|>'], ['<|endoftext|>']],
    })
    expect(result.toolCalls).toEqual([{ name: 'hold', arguments: {} }])
    expect(result.message.reasoning_content).toBe('ok')
    expect(result.finishReason).toBe('length')
    expect(model.identity).toMatchObject({ mode: 'qwen3', gguf: file, model: 'model.gguf' })
  })
})
