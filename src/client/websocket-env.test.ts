import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import type { EnvSpec } from '../core/env/env-api.js'
import { MalformedReplyError } from './client-errors.js'
import { WebSocketEnv } from './websocket-env.js'

let server: WebSocketServer | undefined
afterEach(() => server?.close())

/** A server that answers every request with `data` (and the request's id), whatever it was. */
async function answering(data: unknown): Promise<string> {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server?.once('listening', resolve))
  server.on('connection', (socket) =>
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString())
      if (message.type !== 'close') socket.send(JSON.stringify({ type: 'observation', data, request_id: message.request_id }))
    }),
  )
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const spec: EnvSpec = {
  id: 'scripted-v1',
  description: 'A scripted server',
  tools: [],
  maxEpisodeSteps: 4,
  deterministic: true,
  invalidActionReward: -0.25,
  defaultSeed: 0,
}

async function envAt(wsUrl: string): Promise<WebSocketEnv> {
  const env = new WebSocketEnv(spec, {
    baseUrl: 'http://127.0.0.1',
    wsUrl,
    headers: {},
    connectTimeoutMs: 2000,
    requestTimeoutMs: 2000,
    reconnectAttempts: 0,
    reconnectInitialDelayMs: 10,
    reconnectMaxDelayMs: 10,
    maxPayloadBytes: 1 << 20,
  })
  await env.connect()
  return env
}

const metadata = { terminated: false, truncated: false, info: { cumulative_reward: 0, step_count: 0 }, text: 'hello' }

describe('WebSocketEnv replies', () => {
  it('a reply of the declared shape becomes the observation as sent: key order kept, metadata dropped', async () => {
    const env = await envAt(await answering({ observation: { z: 1, metadata, a: 2 }, reward: 0, done: false, metadata }))
    const { observation, info } = await env.reset({ seed: 1 })
    expect(Object.keys(observation)).toEqual(['z', 'a'])
    expect(info).toEqual(metadata.info)
    expect(env.render(observation)).toBe('hello')
    await env.close()
  })

  it('a reply without metadata is a coded malformed_reply naming the path, not a cast', async () => {
    const env = await envAt(await answering({ observation: { a: 1 }, reward: 0, done: false }))
    const error = await env.reset().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MalformedReplyError)
    expect(error).toMatchObject({ code: 'malformed_reply', path: 'metadata' })
    await env.close()
  })

  it('a step reply whose info lacks step_count, or whose reward is a string, is refused with each path', async () => {
    const bad = { ...metadata, info: { cumulative_reward: 0 } }
    const env = await envAt(await answering({ observation: {}, reward: '1', done: false, metadata: bad }))
    const error = (await env.step({ name: 'x', arguments: {} }).catch((caught: unknown) => caught)) as MalformedReplyError
    expect(error.code).toBe('malformed_reply')
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(['metadata.info.step_count', 'reward'])
    await env.close()
  })

  it('a state reply is validated too: a step_count that is no count is refused, a good one comes back as sent', async () => {
    const bad = await envAt(await answering({ episode_id: null, step_count: 'one' }))
    await expect(bad.state()).rejects.toMatchObject({ code: 'malformed_reply', path: 'step_count' })
    await bad.close()
    server?.close()
    const good = await envAt(await answering({ view: 1, episode_id: 'e', step_count: 2 }))
    expect(Object.keys(await good.state())).toEqual(['view', 'episode_id', 'step_count'])
    await good.close()
  })
})
