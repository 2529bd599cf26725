import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatModel } from './create-chat-model.js'

/** An endpoint that serves one model and counts the `/models` questions it is asked. */
let server: Server
let baseUrl: string
let modelQuestions = 0

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/v1/models') modelQuestions++
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ data: [{ id: 'served-model' }] }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

describe('createChatModel', () => {
  it('builds an endpoint model with its sampling in one key order, after asking the endpoint what it serves', async () => {
    const before = modelQuestions
    const model = await createChatModel({
      baseUrl,
      model: 'served-model',
      mode: 'qwen3.5',
      seed: 7,
      maxTokens: 64,
      temperature: 0.6,
      enableThinking: false,
    })
    expect(modelQuestions).toBe(before + 1)
    expect(model.identity).toEqual({
      model: 'served-model',
      mode: 'qwen3.5',
      base_url: baseUrl,
      sampling: { temperature: 0.6, max_tokens: 64, seed: 7 },
      enable_thinking: false,
      stream: false,
    })
    expect(Object.keys(model.identity.sampling)).toEqual(['temperature', 'max_tokens', 'seed'])
  })

  it('a model the endpoint does not serve is refused with unknown_model; checkEndpoint: false asks nothing', async () => {
    await expect(createChatModel({ baseUrl, model: 'other', mode: 'native' })).rejects.toMatchObject({
      code: 'unknown_model',
    })
    const before = modelQuestions
    const model = await createChatModel({ baseUrl, model: 'other', mode: 'native', checkEndpoint: false })
    expect(model.identity.model).toBe('other')
    expect(modelQuestions).toBe(before)
  })

  it('refuses settings that name no model, and a GGUF file in native mode, with their codes', async () => {
    await expect(createChatModel({ baseUrl, mode: 'native' })).rejects.toMatchObject({ code: 'missing_model' })
    await expect(createChatModel({ model: 'm', mode: 'native' })).rejects.toMatchObject({ code: 'missing_model' })
    await expect(createChatModel({ gguf: 'model.gguf', mode: 'native' })).rejects.toMatchObject({ code: 'invalid_mode' })
  })
})
