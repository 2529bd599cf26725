import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { ConnectionLostError, RequestTimeoutError, ServerError } from './client-errors.js'
import { WsConnection } from './ws-connection.js'

let server: WebSocketServer | undefined
afterEach(() => server?.close())

/** A scripted server: `onMessage` decides what (and when) to answer. */
async function scriptedServer(
  onMessage: (message: Record<string, unknown>, send: (reply: unknown) => void) => void,
): Promise<string> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server?.once('listening', resolve))
  server.on('connection', (socket) =>
    socket.on('message', (data) => onMessage(JSON.parse(data.toString()), (reply) => socket.send(JSON.stringify(reply)))),
  )
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const open = (url: string) => WsConnection.open({ url, connectTimeoutMs: 2000, maxPayloadBytes: 1 << 20 })

describe('WsConnection', () => {
  it('matches replies to requests by request_id, whatever their order', async () => {
    const held: [Record<string, unknown>, (reply: unknown) => void][] = []
    const url = await scriptedServer((message, send) => {
      held.push([message, send])
      if (held.length === 2)
        for (const [pending, reply] of held.reverse())
          reply({ type: 'state', data: { n: pending.n }, request_id: pending.request_id })
    })
    const connection = await open(url)
    const [first, second] = await Promise.all([
      connection.request({ type: 'state', n: 1 }, 2000),
      connection.request({ type: 'state', n: 2 }, 2000),
    ])
    expect([first.data, second.data]).toEqual([{ n: 1 }, { n: 2 }])
    connection.close()
  })

  it('a timeout drops the connection, so a late reply can never answer a later request (OpenEnv #1143)', async () => {
    let first: ((reply: unknown) => void) | undefined
    const url = await scriptedServer((message, send) => {
      if (!first) {
        first = () => send({ type: 'state', data: { late: true }, request_id: message.request_id })
        return
      }
      send({ type: 'state', data: { late: false }, request_id: message.request_id })
    })
    const connection = await open(url)
    await expect(connection.request({ type: 'state' }, 50)).rejects.toBeInstanceOf(RequestTimeoutError)
    first?.(undefined)
    expect(connection.isOpen).toBe(false)
    await expect(connection.request({ type: 'state' }, 2000)).rejects.toBeInstanceOf(ConnectionLostError)
  })

  it('error frames reject with the server’s code; unsolicited ones explain a close', async () => {
    const url = await scriptedServer((message, send) => {
      if (message.type === 'step')
        send({
          type: 'error',
          data: { code: 'EXECUTION_ERROR', error_code: 'reset_needed', message: 'reset first' },
          request_id: message.request_id,
        })
      else {
        send({ type: 'error', data: { code: 'SESSION_ERROR', message: 'idle' } })
        for (const client of server?.clients ?? []) client.close(4001, 'idle_timeout')
      }
    })
    const connection = await open(url)
    const error = await connection.request({ type: 'step' }, 2000).catch((caught) => caught)
    expect(error).toBeInstanceOf(ServerError)
    expect(error).toMatchObject({ code: 'reset_needed', wireCode: 'EXECUTION_ERROR', message: 'reset first' })
    const lost = await connection.request({ type: 'state' }, 2000).catch((caught) => caught)
    expect(lost).toBeInstanceOf(ConnectionLostError)
    expect(lost.details).toMatchObject({ close_code: 4001, server_error: 'session_error' })
  })

  it('a refused upgrade is a ConnectionLostError naming the status', async () => {
    await expect(
      WsConnection.open({ url: 'ws://127.0.0.1:1/ws', connectTimeoutMs: 500, maxPayloadBytes: 1024 }),
    ).rejects.toBeInstanceOf(ConnectionLostError)
  })
})
