/**
 * `POST /hub/push` and the push after a successful run, against a Hub double on loopback that speaks the
 * parts of the Hub API `@huggingface/hub` uses (repo creation, preupload, commit). The server's own
 * HF_TOKEN is what reaches the Hub; requests cannot supply one, pick a path outside the outputs root,
 * or name an invalid repo.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'

interface Commit {
  repo: string
  authorization: string | undefined
  title: string
  files: Record<string, string>
}

const hubToken = 'hf_server_side_token_123'
let hub: Server
let hubUrl: string
const commits: Commit[] = []
const created: string[] = []
const servers: OperationsServer[] = []

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

beforeAll(async () => {
  hub = createServer(async (request, response) => {
    const url = request.url ?? ''
    const body = await bodyOf(request)
    const reply = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(value))
    }
    if (request.headers.authorization !== `Bearer ${hubToken}`) return reply(401, { error: 'Invalid credentials' })
    if (request.method === 'POST' && url === '/api/repos/create') {
      const { name, organization } = JSON.parse(body) as { name: string; organization?: string }
      created.push(`${organization}/${name}`)
      return reply(200, { url: `${hubUrl}/${organization}/${name}` })
    }
    const preupload = /^\/api\/models\/([^/]+\/[^/]+)\/preupload\/main$/.exec(url)
    if (preupload) {
      const { files } = JSON.parse(body) as { files: { path: string }[] }
      return reply(200, { files: files.map((file) => ({ path: file.path, uploadMode: 'regular' })) })
    }
    const commit = /^\/api\/models\/([^/]+\/[^/]+)\/commit\/main$/.exec(url)
    if (commit) {
      const lines = body.split('\n').map((line) => JSON.parse(line) as { key: string; value: Record<string, string> })
      const files: Record<string, string> = {}
      for (const line of lines)
        if (line.key === 'file') files[line.value.path as string] = Buffer.from(line.value.content as string, 'base64').toString()
      commits.push({
        repo: commit[1] as string,
        authorization: request.headers.authorization,
        title: lines[0]?.value.summary as string,
        files,
      })
      return reply(200, { commitOid: `c${commits.length}`, commitUrl: `${hubUrl}/${commit[1]}/commit/c${commits.length}` })
    }
    reply(404, { error: `no route ${url}` })
  })
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve))
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`
})

afterEach(async () => {
  for (const server of servers.splice(0)) await server.dispose()
  commits.length = 0
  created.length = 0
})

afterAll(() => new Promise<void>((resolve) => hub.close(() => resolve())))

async function server(training: Record<string, unknown> = { hubToken, hubUrl }): Promise<OperationsServer> {
  const started = await startOperationsServer({ training })
  servers.push(started)
  await mkdir(join(started.outputs, 'runs', 'r1', 'best_by_reward', 'nested'), { recursive: true })
  await writeFile(join(started.outputs, 'runs', 'r1', 'best_by_reward', 'config.json'), '{"model_type": "qwen3"}')
  await writeFile(join(started.outputs, 'runs', 'r1', 'best_by_reward', 'nested', 'tokenizer.json'), '{"version": "1.0"}')
  return started
}

describe('Hub push', () => {
  it('uploads a folder of the outputs root with the server token', async () => {
    const target = await server()
    const response = await target.call('/hub/push', {
      method: 'POST',
      body: { repo: 'someone/releaseops-grpo', path: 'runs/r1/best_by_reward', create_repo: true },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      repo: 'someone/releaseops-grpo',
      path: 'runs/r1/best_by_reward',
      files: 2,
      commit: 'c1',
    })
    expect(created).toEqual(['someone/releaseops-grpo'])
    expect(commits).toEqual([
      {
        repo: 'someone/releaseops-grpo',
        authorization: `Bearer ${hubToken}`,
        title: 'releaseops: upload runs/r1/best_by_reward',
        files: { 'config.json': '{"model_type": "qwen3"}', 'nested/tokenizer.json': '{"version": "1.0"}' },
      },
    ])
  })

  it('refuses a push without a server token, with an invalid repo, a token field, or a path outside the root', async () => {
    const noToken = await server({ hubUrl })
    const missing = await noToken.call('/hub/push', {
      method: 'POST',
      body: { repo: 'someone/model', path: 'runs/r1/best_by_reward' },
    })
    expect(missing.status).toBe(503)
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('hub_token_missing')
    const target = await server()
    const cases: [unknown, number, string][] = [
      [{ repo: 'someone/model/extra', path: 'runs' }, 422, 'validation_error'],
      [{ repo: '../model', path: 'runs' }, 422, 'validation_error'],
      [{ repo: 'someone/model', path: 'runs', token: 'hf_attacker' }, 422, 'validation_error'],
      [{ repo: 'someone/model', path: '../../etc' }, 400, 'path_traversal'],
      [{ repo: 'someone/model', path: '/etc' }, 400, 'absolute_path'],
      [{ repo: 'someone/model', path: 'runs/none' }, 404, 'not_found'],
    ]
    for (const [body, status, code] of cases) {
      const response = await target.call('/hub/push', { method: 'POST', body })
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code)
    }
    expect(commits).toEqual([])
  })

  it('a run with hub_repo pushes its best checkpoint when it succeeds', async () => {
    const target = await server()
    const start = await target.call('/train/start', { method: 'POST', body: { max_steps: 2, hub_repo: 'someone/best' } })
    expect(start.status).toBe(202)
    await waitFor(async () => {
      const status = (await (await target.call('/train/status')).json()) as { hub_push: { state: string } | null }
      return status.hub_push?.state === 'pushed'
    })
    const status = (await (await target.call('/train/status')).json()) as { run_id: string; hub_push: Record<string, unknown> }
    expect(status.hub_push).toEqual({
      state: 'pushed',
      repo: 'someone/best',
      path: `runs/${status.run_id}/best_by_reward`,
      commit: 'c1',
    })
    expect(Object.keys(commits[0]?.files ?? {}).sort()).toEqual(['best_info.json', 'model.safetensors'])
    expect(commits[0]?.authorization).toBe(`Bearer ${hubToken}`)
  })
})
