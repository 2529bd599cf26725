/**
 * A clean stop (issue 35 item 4): on SIGTERM every WebSocket, `/ws` and `WS /mcp` alike, is closed with
 * `1001 server_shutdown` (the WebSocket plugin's own hook closed them first with 1005, no status), a
 * message being answered is answered before the close, the job hooks of the close sequence run after the
 * connections are drained, and the process exits 0 within the grace.
 */
import { describe, expect, it } from 'vitest'
import { type JsonRecord, postJson, spawnServer, startTestServer, TestSocket, wsUrl } from './support/test-server.js'

const batch = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    jsonrpc: '2.0',
    id: index + 1,
    method: 'tools/call',
    params: { name: 'inspect_ticket', arguments: { ticket_id: `t${index}` } },
  }))

/** The close code and reason a socket gets, as `code reason`. */
const closeOf = (socket: TestSocket) =>
  new Promise<string>((resolve) => socket.socket.once('close', (code, reason) => resolve(`${code} ${reason.toString()}`)))

describe('SIGTERM', () => {
  it('closes every WebSocket with 1001 server_shutdown, answers what is in flight, exits 0', async () => {
    const server = await spawnServer(['--env', 'releaseops-v1', '--shutdown-grace', '5'])
    const playing = await TestSocket.open(wsUrl(server.url))
    expect((await playing.send({ type: 'reset', data: { seed: 3 } })).type).toBe('observation')
    const idle = await TestSocket.open(wsUrl(server.url, '/envs/releaseops-v2/ws'))
    const mcp = await TestSocket.open(wsUrl(server.url, '/envs/releaseops-v1/mcp'))
    expect((await mcp.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).result).toBeDefined()
    const session = await postJson(`${server.url}/sessions`, {})
    expect(session.status).toBe(201)
    const busy = await TestSocket.open(wsUrl(server.url))
    busy.socket.send(JSON.stringify({ type: 'mcp', data: batch(100), request_id: 'in-flight' }))
    const closes = [playing, idle, mcp, busy].map(closeOf)
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)))
    server.child.kill('SIGTERM')
    const batchReply = JSON.parse(await busy.next(20_000)) as JsonRecord
    expect(batchReply).toMatchObject({ type: 'mcp', request_id: 'in-flight' })
    expect(batchReply.data).toHaveLength(100)
    expect(await Promise.all(closes)).toEqual(Array(4).fill('1001 server_shutdown'))
    expect(await exited).toBe(0)
  })
})

describe('the close sequence', () => {
  it('job hooks run once the sockets are closed, each told the deadline; a failing one does not stop the others', async () => {
    const server = await startTestServer({ shutdownGraceS: 2 })
    const socket = await TestSocket.open(wsUrl(server.url))
    const seen: { hook: string; socketClosed: boolean; deadline: number }[] = []
    server.context.shutdown.addJobHook('failing', () => {
      throw new Error('a job that cannot stop cleanly')
    })
    server.context.shutdown.addJobHook('recording', (deadline) => {
      seen.push({ hook: 'recording', socketClosed: socket.closeCode !== undefined, deadline })
    })
    const started = Date.now()
    await server.close()
    expect(await socket.closed).toBe(1001)
    expect(seen).toHaveLength(1)
    expect(seen[0]?.socketClosed).toBe(true)
    expect(seen[0]?.deadline).toBeGreaterThanOrEqual(started + 2000)
  })
})
