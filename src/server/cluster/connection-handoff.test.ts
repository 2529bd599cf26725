import { once } from 'node:events'
import { request } from 'node:http'
import { type AddressInfo, createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ConnectionHandoff } from './connection-handoff.js'

let server: Server | undefined
afterEach(() => {
  server?.close()
})

async function primaryWithoutWorkers(starting: () => boolean): Promise<string> {
  server = createServer({ pauseOnConnect: true })
  new ConnectionHandoff(server, { serving: () => [], worker: () => undefined, starting })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`
}

function get(url: string) {
  return new Promise<{ status: number; retryAfter: string | undefined; body: { error: { code: string; message: string } } }>(
    (resolve, reject) => {
      const outgoing = request(url, { agent: false }, (reply) => {
        let text = ''
        reply.on('data', (chunk: Buffer) => {
          text += chunk.toString()
        })
        reply.on('end', () =>
          resolve({ status: reply.statusCode ?? 0, retryAfter: reply.headers['retry-after'], body: JSON.parse(text) }),
        )
      })
      outgoing.on('error', reject)
      outgoing.end()
    },
  )
}

describe('ConnectionHandoff with no worker serving', () => {
  it('while workers start, says the server is starting (503 worker_starting), not that a worker stopped', async () => {
    const reply = await get(await primaryWithoutWorkers(() => true))
    expect(reply.status).toBe(503)
    expect(reply.retryAfter).toBe('1')
    expect(reply.body.error.code).toBe('worker_starting')
    expect(reply.body.error.message).toContain('starting')
    expect(reply.body.error.message).not.toContain('stopped')
  })

  it('with none starting, a worker stopped (503 worker_unavailable)', async () => {
    const reply = await get(await primaryWithoutWorkers(() => false))
    expect(reply.status).toBe(503)
    expect(reply.body.error.code).toBe('worker_unavailable')
    expect(reply.body.error.message).toContain('stopped')
  })
})
