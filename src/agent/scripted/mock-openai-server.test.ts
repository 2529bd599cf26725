/** The mock endpoint's pure steps: its model list, which paths are model routes, and a garbled reply. */
import { describe, expect, it } from 'vitest'
import { garbledReply } from './answer-model-request.js'
import { modelList, modelRouteOf } from './mock-openai-server.js'
import type { MockReply } from './mock-reply.js'

describe('modelList', () => {
  it('names the one model, with root and parent only when given', () => {
    expect(modelList({}, 'scripted')).toEqual({
      object: 'list',
      data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'releaseops' }],
    })
    const [model] = modelList({ modelRoot: '/ckpt/lora', modelParent: 'Qwen/Qwen3' }, 'lora').data
    expect([model?.root, model?.parent]).toEqual(['/ckpt/lora', 'Qwen/Qwen3'])
  })
})

describe('modelRouteOf', () => {
  it('knows the two model routes by method and path, nothing else', () => {
    expect(modelRouteOf('POST /v1/chat/completions')).toBe('chat')
    expect(modelRouteOf('POST /v1/completions')).toBe('completion')
    expect(modelRouteOf('GET /v1/chat/completions')).toBeNull()
    expect(modelRouteOf('POST /v1/embeddings')).toBeNull()
  })
})

describe('garbledReply', () => {
  it('keeps the seed and usage and replaces the text and calls with nonsense', () => {
    const reply = {
      seed: 's1',
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      chat: { content: 'fine', reasoning: 'why', calls: [{ name: 'look', arguments: {} }] },
      text: 'fine',
    } as unknown as MockReply
    const garbled = garbledReply(reply)
    expect(garbled.seed).toBe('s1')
    expect(garbled.usage).toBe(reply.usage)
    expect(garbled.chat).toEqual({ content: 'Bananas are berries ~~ }{', reasoning: null, calls: [] })
    expect(garbled.text).toBe('Bananas are berries ~~ }{')
  })
})
