/**
 * `--workers 2`, a worker SIGKILLed while connections keep arriving (issue 28 item 4): a connection the
 * cluster handed to the worker in the instant it died must still be answered (or closed), never left
 * hanging. Fresh connections are opened every millisecond around each kill; every one must settle.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerProcess, spawnServer } from './support/test-server.js'

let server: ServerProcess

beforeAll(async () => {
  server = await spawnServer(['--env', 'releaseops-v1', '--workers', '2'])
})
afterAll(async () => {
  await server.stop()
})

function workerPid(index: number): number | undefined {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.pid)])
    .toString()
    .trim()
    .split(/\s+/)
  return children.map(Number).find((child) => {
    try {
      return readFileSync(`/proc/${child}/environ`, 'utf8').split('\0').includes(`RELEASEOPS_WORKER_INDEX=${index}`)
    } catch {
      return false
    }
  })
}

type Outcome = 'answered' | 'closed' | 'hung'

/** GET /health on a fresh connection: answered (any status), closed (reset/EOF), or hung past `limitMs`. */
function probe(url: string, limitMs: number): Promise<Outcome> {
  return new Promise((settle) => {
    const timer = setTimeout(() => {
      outgoing.destroy()
      settle('hung')
    }, limitMs)
    const outgoing = request(`${url}/health`, { agent: false }, (response) => {
      response.resume()
      response.on('end', () => {
        clearTimeout(timer)
        settle('answered')
      })
      response.on('error', () => {
        clearTimeout(timer)
        settle('closed')
      })
    })
    outgoing.on('error', () => {
      clearTimeout(timer)
      settle('closed')
    })
    outgoing.end()
  })
}

async function waitForWorker(index: number, previous: number | undefined): Promise<number> {
  const deadline = Date.now() + 20_000
  while (Date.now() < deadline) {
    const pid = workerPid(index)
    if (pid !== undefined && pid !== previous && (await probe(server.url, 2000)) === 'answered') return pid
    await new Promise((resolveWait) => setTimeout(resolveWait, 50))
  }
  throw new Error(`worker ${index} did not come back`)
}

describe('--workers 2: connections around a worker kill', () => {
  it('every connection opened within milliseconds of a SIGKILL is answered or closed, never left hanging', async () => {
    const outcomes: Outcome[] = []
    let previous: number | undefined
    for (let round = 0; round < 4; round++) {
      const pid = await waitForWorker(0, previous)
      previous = pid
      const probes: Promise<Outcome>[] = []
      const started = Date.now()
      let killed = false
      while (Date.now() - started < 60) {
        if (!killed && Date.now() - started >= 20) {
          process.kill(pid, 'SIGKILL')
          killed = true
        }
        for (let burst = 0; burst < 8; burst++) probes.push(probe(server.url, 8000))
        await new Promise((resolveTick) => setTimeout(resolveTick, 1))
      }
      outcomes.push(...(await Promise.all(probes)))
    }
    const hung = outcomes.filter((outcome) => outcome === 'hung').length
    expect(outcomes.length).toBeGreaterThan(60)
    expect(hung, `${hung} of ${outcomes.length} connections hung`).toBe(0)
    // The server keeps serving on both workers afterwards.
    expect(await probe(server.url, 2000)).toBe('answered')
  }, 120_000)
})
