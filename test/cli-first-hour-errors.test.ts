/**
 * Errors a newcomer meets in the first hour (issue 28 item 11): a port in use is one coded line with the
 * `--port`/`PORT` hint and exit 2 (one process or a cluster); an endpoint nobody listens on is caught
 * before any episode runs, in `eval` and `gate rollout` alike, saying "connection refused", exit 2.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './support/run-cli.js'

let occupied: Server
let busyPort: number
let deadPort: number
const work = mkdtempSync(join(tmpdir(), 'releaseops-first-hour-'))

const listen = (server: Server) =>
  new Promise<number>((resolvePort) =>
    server.listen(0, '127.0.0.1', () => resolvePort((server.address() as { port: number }).port)),
  )

beforeAll(async () => {
  occupied = createServer()
  busyPort = await listen(occupied)
  const probe = createServer()
  deadPort = await listen(probe)
  await new Promise<void>((closed) => probe.close(() => closed()))
})
afterAll(() => {
  occupied.close()
})

const oneLine = (stderr: string) => stderr.trim().split('\n')

describe('a port in use', () => {
  it('releaseops serve: one line error[port_in_use] naming --port and PORT, exit 2, no stack trace', () => {
    for (const extra of [[], ['--workers', '2']]) {
      const result = runCli(['serve', '--port', String(busyPort), ...extra])
      expect(result.status, extra.join(' ')).toBe(2)
      const lines = oneLine(result.stderr)
      expect(lines, result.stderr).toHaveLength(1)
      expect(lines[0]).toMatch(/^error\[port_in_use\]: Port \d+ on 127\.0\.0\.1 is in use; .*--port N .*PORT/)
      expect(result.stderr).not.toContain('    at ')
    }
  })
})

describe('a dead model endpoint', () => {
  it('eval --model … --base-url <nothing listening>: error[endpoint_unreachable], connection refused, exit 2', () => {
    const out = join(work, 'eval.json')
    const result = runCli([
      'eval',
      '--env',
      'releaseops-v1',
      '--dataset',
      'eval',
      '--model',
      'm',
      '--base-url',
      `http://127.0.0.1:${deadPort}/v1`,
      '--out',
      out,
    ])
    expect(result.status).toBe(2)
    expect(oneLine(result.stderr).at(-1)).toMatch(
      /^error\[endpoint_unreachable\]: Cannot reach .*connection refused \(ECONNREFUSED\)/,
    )
    expect(existsSync(out)).toBe(false)
    // Caught up front: no episode is tried (an episode's retries would each be reported); the error alone.
    expect(oneLine(result.stderr)).toHaveLength(1)
  })

  it('gate rollout with the same endpoint: the same error before any rollout, no report', () => {
    const report = join(work, 'gate.json')
    const result = runCli([
      'gate',
      'rollout',
      '--env',
      'releaseops-v2',
      '--split',
      'eval',
      '--limit',
      '2',
      '--base-url',
      `http://127.0.0.1:${deadPort}/v1`,
      '--model',
      'm',
      '--report',
      report,
      '--exploration',
      '--min-denominator',
      '2',
      '--lower',
      '0',
      '--upper',
      '1',
    ])
    expect(result.status).toBe(2)
    expect(oneLine(result.stderr).at(-1)).toMatch(/^error\[endpoint_unreachable\]: .*connection refused/)
    expect(existsSync(report)).toBe(false)
  })
})
