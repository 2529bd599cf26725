/**
 * OpenEnv's `/ws` protocol (docs/wire-reference.md §2): message and reply shapes, metadata kept, request ids,
 * the seven error codes and which of them keep the connection open, MCP inside `/ws`, capacity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EnvRegistry } from '../src/core/registry/env-registry.js'
import { makeEnv } from '../src/envs/index.js'
import { releaseOpsV1Spec } from '../src/envs/releaseops/v1/index.js'
import { parseServerOptions } from '../src/server/server-options.js'
import { type RunningServer, startServer } from '../src/server/start-server.js'
import { type JsonRecord, spawnServer, startTestServer, TestSocket, wsUrl } from './support/test-server.js'

let server: RunningServer
const v1 = () => wsUrl(server.url, '/envs/releaseops-v1/ws')

beforeAll(async () => {
  server = await startTestServer({ maxSessions: 8 })
})
afterAll(async () => {
  await server.close()
})

describe('WS /ws: an episode', () => {
  it('reset, step and state answer like the in-process env; done = terminated || truncated', async () => {
    const env = makeEnv('releaseops-v1')
    const socket = await TestSocket.open(v1())
    const reset = await socket.send({
      type: 'reset',
      data: { seed: 42, options: { family: 'careful_qa_safe', difficulty: 'low' } },
    })
    const expectedReset = env.reset({ seed: 42, options: { family: 'careful_qa_safe', difficulty: 'low' } })
    expect(reset.type).toBe('observation')
    const data = reset.data as JsonRecord
    expect(data.metadata).toEqual({
      terminated: false,
      truncated: false,
      info: expectedReset.info,
      text: env.render(expectedReset.observation),
    })
    expect(data.observation.metadata).toEqual(data.metadata)
    const proposal = (expectedReset.observation as JsonRecord).view.proposals[0].id as string
    const call = { name: 'approve_proposal', arguments: { proposal_id: proposal } }
    const expected = env.step(call)
    const step = (await socket.send({ type: 'step', data: { tool: call.name, arguments: call.arguments } })).data as JsonRecord
    expect(step.reward).toBe(expected.reward)
    expect(step.done).toBe(expected.terminated || expected.truncated)
    expect(step.metadata.info).toEqual(expected.info)
    const { metadata: _metadata, ...observation } = step.observation
    expect(JSON.stringify(observation)).toBe(JSON.stringify(expected.observation))
    const state = await socket.send({ type: 'state' })
    expect(state).toEqual({ type: 'state', data: { episode_id: null, step_count: 1, ...env.state() } })
    socket.close()
  })

  it('an invalid action is an observation with the error and the penalty, and the episode goes on', async () => {
    const socket = await TestSocket.open(v1())
    await socket.send({ type: 'reset', data: { seed: 3 } })
    const bad = (
      await socket.send({ type: 'step', data: { tool: 'ask_worker', arguments: { worker_id: 'x', question_type: 'gossip' } } })
    ).data as JsonRecord
    expect(bad.reward).toBe(-0.25)
    expect(bad.done).toBe(false)
    expect(bad.observation.error.code).toBe('invalid_arguments')
    expect(bad.metadata.error.issues[0].path).toBe('question_type')
    const next = (
      await socket.send({ type: 'step', data: { tool: 'hold_release', arguments: { reason_code: 'risk_too_high' } } })
    ).data as JsonRecord
    expect(next.metadata.info.step_count).toBe(2)
    socket.close()
  })

  it('echoes request_id on replies and errors (OpenEnv #1143)', async () => {
    const socket = await TestSocket.open(v1())
    expect((await socket.send({ type: 'reset', request_id: 'a-1' })).request_id).toBe('a-1')
    expect((await socket.send({ type: 'state', request_id: 17 })).request_id).toBe(17)
    const error = await socket.send({ type: 'step', data: {}, request_id: 'b-2' })
    expect(error).toMatchObject({ type: 'error', request_id: 'b-2', data: { code: 'VALIDATION_ERROR' } })
    socket.close()
  })

  it('accepts OpenEnv MCP actions and mcp messages on the same session', async () => {
    const socket = await TestSocket.open(v1())
    await socket.send({ type: 'reset', data: { seed: 5 } })
    const list = (await socket.send({ type: 'step', data: { type: 'list_tools' } })).data as JsonRecord
    expect(list.observation.tools.map((tool: { name: string }) => tool.name)).toContain('inspect_ticket')
    expect(list.observation.tools[0]).toHaveProperty('input_schema')
    const call = (
      await socket.send({
        type: 'step',
        data: { type: 'call_tool', tool_name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } },
      })
    ).data as JsonRecord
    expect(call.observation.tool_name).toBe('hold_release')
    expect(call.observation.error).toBeNull()
    expect(call.observation.result.data).toBe(call.metadata.text)
    const unknown = (await socket.send({ type: 'step', data: { type: 'call_tool', tool_name: 'nope', arguments: {} } }))
      .data as JsonRecord
    // A tool failure (OpenEnv's way): in the result with is_error; `error` is for framework failures only.
    expect(unknown.observation.error).toBeNull()
    expect(unknown.observation.result.is_error).toBe(true)
    expect(unknown.observation.result.data).toContain('Unknown tool: nope')
    expect(unknown.reward).toBe(-0.25)
    expect(unknown.observation.metadata.error).toEqual({ code: 'unknown_tool', message: 'Unknown tool: nope' })
    const rpc = await socket.send({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'inspect_ticket', arguments: { ticket_id: 'none' } } },
    })
    expect(rpc.type).toBe('mcp')
    const result = (rpc.data as JsonRecord).result
    expect(result.isError).toBe(true)
    expect(result.structuredContent.info.step_count).toBe(3)
    socket.close()
  })
})

describe('WS /ws: errors', () => {
  it('INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR and EXECUTION_ERROR keep the connection open', async () => {
    const socket = await TestSocket.open(v1())
    expect(await socket.send('{"type": "reset"')).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } })
    expect(await socket.send({ type: 'teleport' })).toMatchObject({
      type: 'error',
      data: { code: 'UNKNOWN_TYPE', message: 'Unknown message type: teleport' },
    })
    expect(await socket.send({ data: {} })).toMatchObject({ data: { code: 'VALIDATION_ERROR' } })
    expect(await socket.send([1, 2])).toMatchObject({ data: { code: 'VALIDATION_ERROR' } })
    const extra = (await socket.send({ type: 'state', data: {} })).data as JsonRecord
    expect(extra.code).toBe('VALIDATION_ERROR')
    expect(extra.errors).toContainEqual({ type: 'extra_forbidden', loc: ['data'], msg: 'Extra inputs are not permitted.' })
    const wrongType = (await socket.send({ type: 'reset', data: { seed: 'forty-two' } })).data as JsonRecord
    expect(wrongType.issues[0]).toMatchObject({ path: 'data.seed', code: 'invalid_type' })
    const badOptions = (await socket.send({ type: 'reset', data: { seed: 1, options: { family: 'nope' } } })).data as JsonRecord
    expect(badOptions).toMatchObject({ code: 'VALIDATION_ERROR', error_code: 'invalid_reset_options' })
    expect(await socket.send({ type: 'step', data: { tool: 'hold_release', arguments: {} } })).toMatchObject({
      data: { code: 'EXECUTION_ERROR', error_code: 'reset_needed' },
    })
    expect((await socket.send({ type: 'reset', data: { seed: 1 } })).type).toBe('observation')
    expect(socket.socket.readyState).toBe(socket.socket.OPEN)
    socket.close()
  })

  it('close ends the session without a reply', async () => {
    const socket = await TestSocket.open(v1())
    await socket.send({ type: 'reset' })
    const before = server.context.store.size
    socket.socket.send(JSON.stringify({ type: 'close' }))
    expect(await socket.closed).toBe(1000)
    await expect.poll(() => server.context.store.size).toBe(before - 1)
  })

  it('CAPACITY_REACHED carries the counts and closes; the slot frees when a session ends', async () => {
    const sockets = await Promise.all(Array.from({ length: 8 - server.context.store.size }, () => TestSocket.open(v1())))
    const refused = await TestSocket.open(v1())
    const error = JSON.parse(await refused.next()) as JsonRecord
    expect(error).toEqual({
      type: 'error',
      data: { code: 'CAPACITY_REACHED', message: expect.stringContaining('8/8'), active_sessions: 8, max_sessions: 8 },
    })
    expect(await refused.closed).toBe(1013)
    sockets[0]?.close()
    await expect.poll(() => server.context.store.size).toBe(7)
    const admitted = await TestSocket.open(v1())
    expect((await admitted.send({ type: 'reset' })).type).toBe('observation')
    for (const socket of [...sockets.slice(1), admitted]) socket.close()
    await expect.poll(() => server.context.store.size).toBe(0)
  })

  it('an env whose factory throws: FACTORY_ERROR and close 1011 on /ws, a 500 without internals over HTTP', async () => {
    const registry = new EnvRegistry()
    registry.register({
      spec: { ...releaseOpsV1Spec, id: 'broken-v1' },
      create: () => {
        throw new Error('disk on fire')
      },
    })
    const broken = await startServer({
      options: parseServerOptions({ port: 0, logLevel: 'silent' }),
      registry,
      registryDefaultEnvId: 'broken-v1',
    })
    try {
      const socket = await TestSocket.open(wsUrl(broken.url))
      expect(JSON.parse(await socket.next())).toEqual({
        type: 'error',
        data: { code: 'FACTORY_ERROR', message: 'Could not create env broken-v1.', factory_name: 'broken-v1' },
      })
      expect(await socket.closed).toBe(1011)
      const reply = await fetch(`${broken.url}/sessions`, { method: 'POST' })
      expect(reply.status).toBe(500)
      expect(await reply.json()).toEqual({
        error: { code: 'internal_error', message: 'Internal server error; see the server log.' },
      })
      expect(broken.context.store.size).toBe(0)
    } finally {
      await broken.close()
    }
  })

  it('an unknown env is a 404 before any upgrade; a plain GET /ws is 426', async () => {
    await expect(TestSocket.open(wsUrl(server.url, '/envs/nope-v3/ws'))).rejects.toThrow(/404/)
    const plain = await fetch(`${server.url}/envs/releaseops-v1/ws`)
    expect(plain.status).toBe(426)
  })
})

describe('WS: pings', () => {
  /** Sends `count` pings at once and counts the pongs; the socket must still serve a reset afterwards. */
  async function burst(path: string, count: number): Promise<{ pongs: number; close: number | undefined; reset: string }> {
    const socket = await TestSocket.open(wsUrl(server.url, path))
    let pongs = 0
    const all = new Promise<void>((resolve) => {
      socket.socket.on('pong', () => {
        pongs++
        if (pongs === count) resolve()
      })
    })
    for (let index = 0; index < count; index++) socket.socket.ping(Buffer.from(String(index)))
    await Promise.race([all, socket.closed])
    const reset = socket.closeCode === undefined ? String((await socket.send({ type: 'reset' })).type) : 'closed'
    socket.close()
    return { pongs, close: socket.closeCode, reset }
  }

  it('a burst of 300, 1,000 or 5,000 pings is answered pong for pong, and the session carries on', async () => {
    for (const count of [300, 1000, 5000]) {
      expect(await burst('/envs/releaseops-v1/ws', count), `${count} pings`).toEqual({
        pongs: count,
        close: undefined,
        reset: 'observation',
      })
    }
  })
})

describe('WS: frames over the limit', () => {
  it('each is one short log line, never a stack trace per frame; the connection closes 1009', async () => {
    const server = await spawnServer(['--env', 'releaseops-v1', '--max-frame', '1024', '--log-level', 'warn'])
    try {
      const sockets = await Promise.all(Array.from({ length: 5 }, () => TestSocket.open(wsUrl(server.url))))
      for (const socket of sockets) for (let frame = 0; frame < 3; frame++) socket.socket.send('x'.repeat(8000))
      expect(await Promise.all(sockets.map((socket) => socket.closed))).toEqual(Array(5).fill(1009))
      await expect
        .poll(
          () =>
            server
              .output()
              .split('\n')
              .filter((line) => line.includes('WS_ERR_')).length,
        )
        .toBe(5)
      const lines = server.output().split('\n')
      const logged = lines.filter((line) => line.includes('WS_ERR_'))
      expect(logged.every((line) => line.includes('Max payload size exceeded') && line.length < 400)).toBe(true)
      expect(lines.filter((line) => /^\s+at /.test(line) || line.includes('"stack"'))).toEqual([])
    } finally {
      await server.stop()
    }
  })
})
