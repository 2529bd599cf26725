import { describe, expect, it } from 'vitest'
import { listToolsReplySchema, observationReplySchema, stepReplySchema } from '../../core/wire/openenv-reply.js'
import { callToolPayloadJson, listToolsPayloadJson, observationPayloadJson, wsEnvelope } from './observation-payload.js'

const info = { cumulative_reward: -0.25, step_count: 1 }

describe('observationPayloadJson', () => {
  it('is OpenEnv’s {observation, reward, done} with metadata kept at the top and inside the observation', () => {
    const json = observationPayloadJson({
      observation: { view: { a: 1 }, error: { code: 'unknown_tool', message: 'Unknown tool: x' } },
      reward: -0.25,
      terminated: false,
      truncated: true,
      info,
      text: '{"error": ...}',
    })
    const metadata = {
      terminated: false,
      truncated: true,
      info,
      text: '{"error": ...}',
      error: { code: 'unknown_tool', message: 'Unknown tool: x' },
    }
    expect(JSON.parse(json)).toEqual({
      observation: { view: { a: 1 }, error: metadata.error, metadata },
      reward: -0.25,
      done: true,
      metadata,
    })
    expect(Object.keys(JSON.parse(json))).toEqual(['observation', 'reward', 'done', 'metadata'])
  })

  it('a reset has reward null; an empty observation still gets its metadata; an env `metadata` key is replaced', () => {
    const empty = JSON.parse(
      observationPayloadJson({ observation: {}, reward: null, terminated: false, truncated: false, info, text: '' }),
    )
    expect(empty.reward).toBeNull()
    expect(empty.done).toBe(false)
    expect(empty.observation).toEqual({ metadata: empty.metadata })
    const clash = JSON.parse(
      observationPayloadJson({
        observation: { metadata: 'mine', x: 1 },
        reward: 0,
        terminated: false,
        truncated: false,
        info,
        text: 't',
      }),
    )
    expect(clash.observation).toEqual({ x: 1, metadata: clash.metadata })
  })

  it('list_tools uses OpenEnv’s snake_case input_schema; envelopes echo request ids', () => {
    const tools = JSON.parse(listToolsPayloadJson([{ name: 'a', description: 'd', inputSchema: { type: 'object' } }]))
    expect(tools).toEqual({
      observation: { tools: [{ name: 'a', description: 'd', input_schema: { type: 'object' } }] },
      reward: null,
      done: false,
    })
    expect(JSON.parse(wsEnvelope('state', '{"step_count":0}', 'r"1'))).toEqual({
      type: 'state',
      data: { step_count: 0 },
      request_id: 'r"1',
    })
    expect(JSON.parse(wsEnvelope('state', '{}', undefined))).toEqual({ type: 'state', data: {} })
  })
})

describe('the payloads and the wire module agree', () => {
  const bad = {
    observation: {
      view: 1,
      error: { code: 'invalid_arguments', message: 'm', issues: [{ code: 'c', path: 'p', message: 'm' }] },
    },
    reward: -0.25,
    terminated: false,
    truncated: false,
    info,
    text: 't',
  }

  it('reset, step and call_tool payloads parse as observation replies; list_tools as a tool list', () => {
    for (const json of [observationPayloadJson(bad), callToolPayloadJson('inspect', bad)]) {
      expect(observationReplySchema.safeParse(JSON.parse(json)).error).toBeUndefined()
      expect(stepReplySchema.safeParse(JSON.parse(json)).success).toBe(true)
    }
    const tools = JSON.parse(listToolsPayloadJson([{ name: 'a', description: 'd', inputSchema: { type: 'object' } }]))
    expect(listToolsReplySchema.safeParse(tools).error).toBeUndefined()
    expect(stepReplySchema.safeParse(tools).success).toBe(true)
    expect(observationReplySchema.safeParse(tools).success).toBe(false)
  })

  it('the schema refuses what the payload never is: a metadata without its episode flags', () => {
    const payload = JSON.parse(observationPayloadJson(bad))
    delete payload.metadata.terminated
    const result = observationReplySchema.safeParse(payload)
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['metadata.terminated'])
  })
})
