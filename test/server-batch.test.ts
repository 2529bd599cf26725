/**
 * JSON-RPC batches (issue 18 item 2): a batch over the count cap is refused whole on HTTP `/mcp`,
 * `WS /mcp` and `{"type":"mcp"}` in `/ws` (nothing runs); an allowed batch is answered without holding the
 * event loop (`/health` answers meanwhile); the reply stops growing at its size cap; messages after a batch
 * on the same connection are answered after it, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningServer } from '../src/server/start-server.js'
import { type JsonRecord, postJson, startTestServer, TestSocket, wsUrl } from './support/test-server.js'

let server: RunningServer
let small: RunningServer
beforeAll(async () => {
  server = await startTestServer({ maxBatchSize: 100 })
  small = await startTestServer({ maxBatchSize: 100, maxBatchReplyBytes: 16 * 1024 })
})
afterAll(async () => {
  await server.close()
  await small.close()
})

const call = (id: number, sessionId?: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' }, ...(sessionId ? { session_id: sessionId } : {}) },
})
const batchOf = (count: number, sessionId?: string) => Array.from({ length: count }, (_, index) => call(index + 1, sessionId))

/** The highest step count the batch's results report (calls after the episode ended report none). */
const lastStepOf = (items: JsonRecord[]) =>
  Math.max(0, ...items.map((item) => item.result?.structuredContent?.info?.step_count ?? 0))

async function createSession(url: string): Promise<string> {
  const reply = await postJson(`${url}/mcp`, { jsonrpc: '2.0', id: 0, method: 'openenv/session/create', params: { seed: 3 } })
  return reply.json.result.session_id as string
}

describe('JSON-RPC batch caps', () => {
  it('a 7,000-call batch is refused whole, before any call runs, on HTTP, WS /mcp and /ws', async () => {
    const reply = await postJson(`${server.url}/mcp`, batchOf(7000))
    expect(reply.status).toBe(200)
    expect(reply.json.error).toMatchObject({ code: -32600, data: { code: 'batch_too_large', max_batch_size: 100 } })
    // Refused before any call ran (what "fast" stood for; a loaded machine is slow, not wrong): no step counted.
    const counters = (await (await fetch(`${server.url}/counters`)).json()) as JsonRecord
    expect(JSON.stringify(counters)).not.toMatch(/"steps":\s*[1-9]/)

    const mcp = await TestSocket.open(wsUrl(server.url, '/mcp'))
    expect(((await mcp.send(batchOf(7000))) as JsonRecord).error.data.code).toBe('batch_too_large')
    mcp.close()
    const ws = await TestSocket.open(wsUrl(server.url))
    await ws.send({ type: 'reset', data: { seed: 1 } })
    const refused = (await ws.send({ type: 'mcp', data: batchOf(7000) })) as JsonRecord
    expect(refused.type).toBe('mcp')
    expect(refused.data.error.data.code).toBe('batch_too_large')
    expect(((await ws.send({ type: 'state' })) as JsonRecord).data.step_count).toBe(0)
    ws.close()
  })

  it('an allowed batch runs in order while /health keeps answering', async () => {
    const sessionId = await createSession(server.url)
    const batch = postJson(`${server.url}/mcp`, batchOf(100, sessionId))
    // The property, not a latency: /health is answered again and again while the batch is in flight.
    let healthReplies = 0
    let done = false
    void batch.then(() => {
      done = true
    })
    while (!done) {
      if ((await fetch(`${server.url}/health`)).ok && !done) healthReplies += 1
    }
    const reply = await batch
    expect(reply.json).toHaveLength(100)
    expect(reply.json.map((item: JsonRecord) => item.id)).toEqual(batchOf(100).map((item) => item.id))
    const steps = reply.json.map((item: JsonRecord) => item.result.structuredContent.info?.step_count).filter(Boolean)
    expect(steps).toEqual([...steps].sort((a: number, b: number) => a - b))
    expect(healthReplies).toBeGreaterThan(1)
  })

  it('the reply stops at its size cap: the rest are answered "not run", and nothing of the rest runs', async () => {
    const sessionId = await createSession(small.url)
    const reply = await postJson(`${small.url}/mcp`, batchOf(100, sessionId))
    const items = reply.json as JsonRecord[]
    expect(items).toHaveLength(100)
    const run = items.filter((item) => item.result !== undefined)
    const notRun = items.filter((item) => item.error?.data?.code === 'batch_reply_limit')
    expect(run.length).toBeGreaterThan(0)
    expect(run.length + notRun.length).toBe(100)
    expect(items.indexOf(notRun[0] as JsonRecord)).toBe(run.length)
    expect(JSON.stringify(reply.json).length).toBeLessThan(16 * 1024 + 20_000 + notRun.length * 200)
    const state = await postJson(`${small.url}/mcp`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { session_id: sessionId, uri: 'releaseops://session/state' },
    })
    expect(JSON.parse(state.json.result.contents[0].text).step_count).toBe(lastStepOf(run))
  })

  it('on /ws, the message after a batch is answered after it', async () => {
    const ws = await TestSocket.open(wsUrl(server.url))
    await ws.send({ type: 'reset', data: { seed: 2 } })
    ws.socket.send(JSON.stringify({ type: 'mcp', data: batchOf(5), request_id: 'batch' }))
    ws.socket.send(JSON.stringify({ type: 'state', request_id: 'after' }))
    const first = JSON.parse(await ws.next()) as JsonRecord
    const second = JSON.parse(await ws.next()) as JsonRecord
    expect([first.request_id, second.request_id]).toEqual(['batch', 'after'])
    expect(first.data).toHaveLength(5)
    expect(second.data.step_count).toBe(lastStepOf(first.data))
    ws.close()
  })
})
