/**
 * DNS rebinding and cross-origin use (issue 18 item 4): a foreign `Host` gets nothing (no operator data),
 * a cross-origin WebSocket upgrade or `/mcp` call is refused, operator reads need the operator token
 * (or a loopback peer when the server has none), and env play stays open to stock clients that send no
 * headers when only an operator token is set.
 */

import { writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { defaultEnvId, envRegistry } from '../src/envs/index.js'
import { buildServer } from '../src/server/build-server.js'
import { parseServerOptions } from '../src/server/server-options.js'
import { TestSocket, wsUrl } from './support/test-server.js'
import { type OperationsServer, startOperationsServer } from './train-support/operations-server.js'

const operatorToken = 'operator-token-0123456789'
let open: OperationsServer
let guarded: OperationsServer

beforeAll(async () => {
  open = await startOperationsServer({ server: { token: undefined } })
  guarded = await startOperationsServer({ server: { token: undefined, operatorToken, allowedHosts: ['envs.example.org'] } })
  await writeFile(join(open.outputs, 'secret.txt'), 'checkpoint')
})
afterAll(async () => {
  await open.dispose()
  await guarded.dispose()
})

/** A raw HTTP GET with a chosen Host header (fetch does not let a caller set it). */
function getWithHost(url: string, host: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolveReply, reject) => {
    const target = new URL(url)
    const outgoing = request(
      { hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, headers: { host, ...headers } },
      (reply) => {
        let body = ''
        reply.on('data', (chunk: Buffer) => {
          body += chunk.toString()
        })
        reply.on('end', () => resolveReply({ status: reply.statusCode ?? 0, body }))
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/** Resolves with the HTTP status of a refused upgrade, or 101 when the socket opened. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.once('open', () => {
      socket.close()
      resolveStatus(101)
    })
    socket.once('unexpected-response', (_request, response) => {
      resolveStatus(response.statusCode ?? 0)
      socket.terminate()
    })
    socket.once('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error)
    })
  })
}

describe('Host allowlist', () => {
  it('a foreign Host gets no operator data (421), a loopback Host does', async () => {
    const foreign = await getWithHost(`${open.url}/outputs/ls`, 'attacker.example')
    expect(foreign.status).toBe(421)
    expect(foreign.body).not.toContain('secret.txt')
    expect(JSON.parse(foreign.body).error.code).toBe('host_not_allowed')
    expect((await getWithHost(`${open.url}/counters`, 'attacker.example:8000')).status).toBe(421)
    const local = await getWithHost(`${open.url}/outputs/ls`, new URL(open.url).host)
    expect(local.status).toBe(200)
    expect(local.body).toContain('secret.txt')
    expect((await getWithHost(`${open.url}/health`, 'localhost:1234')).status).toBe(200)
  })

  it('IP literals and configured names (with *.suffix patterns) are served', async () => {
    expect((await getWithHost(`${guarded.url}/health`, '10.1.2.3:8000')).status).toBe(200)
    expect((await getWithHost(`${guarded.url}/health`, '[::1]:8000')).status).toBe(200)
    expect((await getWithHost(`${guarded.url}/health`, 'envs.example.org')).status).toBe(200)
    expect((await getWithHost(`${guarded.url}/health`, 'evil.envs.example.org.attacker.example')).status).toBe(421)
  })
})

describe('Origin checks on WebSockets and /mcp', () => {
  it('a cross-origin WebSocket upgrade is refused on /ws and /mcp; same-origin and no-Origin ones open', async () => {
    const host = new URL(open.url).host
    expect(await upgradeStatus(wsUrl(open.url), { origin: 'https://attacker.example' })).toBe(403)
    expect(await upgradeStatus(wsUrl(open.url, '/mcp'), { origin: 'https://attacker.example' })).toBe(403)
    expect(await upgradeStatus(wsUrl(open.url, '/envs/releaseops-v1/ws'), { origin: 'null' })).toBe(403)
    expect(await upgradeStatus(wsUrl(open.url), { origin: `http://${host}` })).toBe(101)
    expect(await upgradeStatus(wsUrl(open.url), {})).toBe(101)
  })

  it('POST /mcp from a foreign origin is refused; allowed origins are configurable', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const post = (url: string, origin: string) =>
      fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body })
    expect((await post(open.url, 'https://attacker.example')).status).toBe(403)
    expect((await post(open.url, open.url)).status).toBe(200)
    const built = await buildServer({
      options: parseServerOptions({ logLevel: 'silent', allowedOrigins: ['https://ui.example.org'] }),
      registry: envRegistry,
      registryDefaultEnvId: defaultEnvId,
    })
    const reply = await built.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', origin: 'https://ui.example.org' },
      payload: body,
    })
    expect(reply.statusCode).toBe(200)
    await built.app.close()
  })
})

describe('the operator access level', () => {
  it('with only an operator token, stock clients play without headers and operator routes need the token', async () => {
    const socket = await TestSocket.open(wsUrl(guarded.url))
    expect((await socket.send({ type: 'reset', data: { seed: 1 } })).type).toBe('observation')
    socket.close()
    expect((await guarded.call('/reset', { method: 'POST', body: { seed: 1 }, token: null })).status).toBe(200)
    for (const path of ['/outputs/ls', '/counters', '/train/status', '/api/eval']) {
      expect((await guarded.call(path, { token: null })).status, path).toBe(401)
      expect((await guarded.call(path, { token: 'wrong-token-0123456789' })).status, path).toBe(401)
      expect((await guarded.call(path, { token: operatorToken })).status, path).toBe(200)
    }
  })

  it('a tokenless server serves operator reads to loopback peers only; a route without a declared level is refused', async () => {
    const built = await buildServer({
      options: parseServerOptions({ logLevel: 'silent' }),
      registry: envRegistry,
      registryDefaultEnvId: defaultEnvId,
    })
    // As another module would add an alias without declaring an access level: refused at registration.
    expect(() => built.app.get('/train/alias-view', async () => ({ secret: true }))).toThrow(
      expect.objectContaining({ code: 'route_access_undeclared' }),
    )
    built.app.get('/train/alias-view', { config: { access: 'operator' } }, async () => ({ secret: true }))
    const from = (remoteAddress: string, url: string) => built.app.inject({ method: 'GET', url, remoteAddress })
    for (const url of ['/outputs/ls', '/counters', '/train/status', '/api/get-eval-results', '/train/alias-view']) {
      const remote = await from('203.0.113.9', url)
      expect(remote.statusCode, url).toBe(403)
      expect(remote.json().error.code).toBe('token_not_configured')
      expect((await from('127.0.0.1', url)).statusCode, url).toBe(200)
    }
    expect((await from('203.0.113.9', '/health')).statusCode).toBe(200)
    expect((await built.app.inject({ method: 'POST', url: '/reset', remoteAddress: '203.0.113.9' })).statusCode).toBe(200)
    await built.app.close()
  })
})
