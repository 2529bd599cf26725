/**
 * MCP with the official TypeScript SDK client: `releaseops mcp` over stdio and `/mcp` over Streamable
 * HTTP list the env tools and play an episode whose results match the in-process env; plus OpenEnv's
 * JSON-RPC session methods and `WS /mcp`.
 */
import { resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeEnv } from '../src/envs/index.js'
import type { RunningServer } from '../src/server/start-server.js'
import { repositoryRoot } from './support/run-cli.js'
import { type JsonRecord, postJson, startTestServer, TestSocket, wsUrl } from './support/test-server.js'

const envId = 'releaseops-v1'
let server: RunningServer

beforeAll(async () => {
  server = await startTestServer({ maxSessions: 8 })
})
afterAll(async () => {
  await server.close()
})

const calls = [
  { name: 'inspect_pr_diff', arguments: { pr_id: 'pr_482' } },
  { name: 'ask_worker', arguments: { worker_id: 'qa_triage', question_type: 'evidence_basis' } },
  { name: 'block_proposal', arguments: { proposal_id: 'p999', rule_id: 'S2' } },
  { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } },
]

/** Lists tools and plays `calls` through an SDK client; checks every result against the env itself. */
async function playThroughSdk(client: Client, reset: { seed?: number; options?: Record<string, unknown> }) {
  const tools = await client.listTools()
  const local = makeEnv(envId)
  expect(tools.tools.map((tool) => tool.name)).toEqual(local.spec.tools.map((tool) => tool.name))
  expect(tools.tools.find((tool) => tool.name === 'hold_release')?.inputSchema.required).toEqual(['reason_code'])
  local.reset(reset)
  for (const call of calls) {
    const result = (await client.callTool(call)) as {
      content: { type: string; text: string }[]
      isError?: boolean
      structuredContent?: JsonRecord
    }
    const expected = local.step(call)
    expect(result.content).toEqual([{ type: 'text', text: local.render(expected.observation) }])
    expect(result.isError).toBe(expected.observation.error !== undefined)
    expect(result.structuredContent?.reward).toBe(expected.reward)
    expect(result.structuredContent?.info).toEqual(expected.info)
  }
}

describe('MCP SDK client', () => {
  it('over stdio (`releaseops mcp --env releaseops-v1 --seed 8491`)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', resolve(repositoryRoot, 'src/cli/run.ts'), 'mcp', '--env', envId, '--seed', '8491'],
      cwd: repositoryRoot,
      stderr: 'pipe',
    })
    const client = new Client({ name: 'releaseops-test', version: '1.0.0' })
    await client.connect(transport)
    try {
      expect(client.getServerVersion()?.name).toBe(`releaseops/${envId}`)
      const local = makeEnv(envId)
      expect(client.getInstructions()).toContain(local.render(local.reset({ seed: 8491 }).observation))
      await playThroughSdk(client, { seed: 8491 })
      const resources = await client.readResource({ uri: 'releaseops://session/state' })
      expect(JSON.parse((resources.contents[0] as { text: string }).text).step_count).toBe(calls.length)
    } finally {
      await client.close()
    }
  })

  it('over Streamable HTTP at /envs/{id}/mcp: initialize opens a session, DELETE closes it', async () => {
    const before = server.context.store.size
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/envs/${envId}/mcp`))
    const client = new Client({ name: 'releaseops-test', version: '1.0.0' })
    await client.connect(transport)
    expect(transport.sessionId).toBeTypeOf('string')
    expect(server.context.store.size).toBe(before + 1)
    await playThroughSdk(client, {})
    await transport.terminateSession()
    expect(server.context.store.size).toBe(before)
    await client.close()
  })
})

describe('OpenEnv JSON-RPC on /mcp', () => {
  const rpc = (body: unknown) => postJson(`${server.url}/envs/${envId}/mcp`, body)

  it('without a session, tools/call runs in a temporary env reset with the defaults', async () => {
    const local = makeEnv(envId)
    local.reset()
    const expected = local.step(calls[0]!)
    const reply = await rpc({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: calls[0] })
    expect(reply.json).toMatchObject({
      jsonrpc: '2.0',
      id: 'a',
      result: { content: [{ type: 'text', text: local.render(expected.observation) }] },
    })
  })

  it('openenv/session/create, calls with params.session_id, openenv/session/close', async () => {
    const created = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'openenv/session/create',
      params: { seed: 11, options: { family: 'careful_qa_safe' } },
    })
    const sessionId = created.json.result.session_id as string
    const local = makeEnv(envId)
    local.reset({ seed: 11, options: { family: 'careful_qa_safe' } })
    for (const call of calls.slice(0, 2)) {
      const reply = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { ...call, session_id: sessionId } })
      expect(reply.json.result.structuredContent.info).toEqual(local.step(call).info)
    }
    expect(
      (await rpc({ jsonrpc: '2.0', id: 3, method: 'openenv/session/close', params: { session_id: sessionId } })).json.result,
    ).toEqual({
      session_id: sessionId,
      closed: true,
    })
    const closed = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { ...calls[0], session_id: sessionId } })
    expect(closed.json.error).toMatchObject({ code: -32602, data: { code: 'unknown_session' } })
  })

  it('JSON-RPC errors are HTTP 200 with the standard codes; notifications get 202', async () => {
    expect((await rpc({})).json.error.code).toBe(-32600)
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'nope' })).json.error.code).toBe(-32601)
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })).json.error.code).toBe(-32602)
    const notification = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(notification.status).toBe(202)
    expect(notification.text).toBe('')
    const batch = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/cancelled' },
    ])
    expect(batch.json).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }])
  })

  it('a null id is an invalid request (MCP forbids it) and runs nothing', async () => {
    const sessions = async () => ((await (await fetch(`${server.url}/health`)).json()) as JsonRecord).active_sessions as number
    const before = await sessions()
    const reply = await rpc({ jsonrpc: '2.0', id: null, method: 'openenv/session/create', params: {} })
    expect(reply.status).toBe(200)
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
    expect(reply.json.error.message).toContain('MCP forbids null ids')
    expect(reply.json.result).toBeUndefined()
    expect(await sessions()).toBe(before)
    const inBatch = await rpc([
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ])
    expect(inBatch.json).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      { jsonrpc: '2.0', id: 2, result: {} },
    ])
  })

  it('a session_id that is not a string is invalid params, never a throwaway session', async () => {
    for (const sessionId of [{ id: 'x' }, 7, ['s'], null]) {
      const reply = await rpc({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { ...calls[0], session_id: sessionId } })
      expect(reply.json.result, JSON.stringify(sessionId)).toBeUndefined()
      expect(reply.json.error).toMatchObject({ code: -32602, data: { code: 'invalid_session_id', path: 'params.session_id' } })
    }
    const read = await rpc({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'x', session_id: {} } })
    expect(read.json.error.data.code).toBe('invalid_session_id')
  })

  it('WS /mcp: one session per connection, JSON-RPC frames', async () => {
    const socket = await TestSocket.open(wsUrl(server.url, `/envs/${envId}/mcp`))
    const list = await socket.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    expect((list.result as { tools: unknown[] }).tools).toHaveLength(7)
    const first = (await socket.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: calls[0] })).result as JsonRecord
    const second = (await socket.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: calls[1] })).result as JsonRecord
    expect([first.structuredContent.info.step_count, second.structuredContent.info.step_count]).toEqual([1, 2])
    expect((await socket.send('not json')).error).toMatchObject({ code: -32700 })
    socket.close()
  })
})
