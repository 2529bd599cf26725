/**
 * The trainer child process under supervision: one run at a time (two simultaneous starts: exactly one
 * wins), a stop kills the whole process group (a grandchild and a trainer that ignore SIGTERM included)
 * and leaves the status right, a crash reports its exit code and last log lines, a trainer that cannot
 * start is a clear error, and closing the server leaves no process behind. The trainer is a process
 * double (test/train-support/fake-trainer.py) so this runs without torch.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { processGroupMembers } from '../src/train/process-group.js'
import { type OperationsServer, startOperationsServer, waitFor } from './train-support/operations-server.js'

type Json = Record<string, unknown>

const servers: OperationsServer[] = []
const variables = ['FAKE_TRAINER_STEP_SECONDS', 'FAKE_TRAINER_EXIT', 'FAKE_TRAINER_GRANDCHILD', 'FAKE_TRAINER_IGNORE_TERM']

afterEach(async () => {
  for (const name of variables) delete process.env[name]
  for (const server of servers.splice(0)) await server.dispose()
})

async function server(training: Record<string, unknown> = {}): Promise<OperationsServer> {
  const started = await startOperationsServer({ training })
  servers.push(started)
  return started
}

async function status(target: OperationsServer): Promise<Json> {
  return (await (await target.call('/train/status')).json()) as Json
}

/** A process that exists and is not a zombie (an adopted grandchild may stay a zombie until reaped). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
  return stat !== '' && !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3))
}

async function logOf(target: OperationsServer): Promise<string> {
  return readFile(join(target.outputs, (await status(target)).log_path as string), 'utf8')
}

describe('trainer process supervision', () => {
  it('two simultaneous starts: exactly one runs, the other is a 409 training_running', async () => {
    process.env.FAKE_TRAINER_STEP_SECONDS = '0.3'
    const target = await server()
    const body = { preset: 'smoke', max_steps: 5 }
    const replies = await Promise.all([
      target.call('/train/start', { method: 'POST', body }),
      target.call('/train/start', { method: 'POST', body }),
    ])
    expect(replies.map((reply) => reply.status).sort()).toEqual([202, 409])
    const refused = replies.find((reply) => reply.status === 409) as Response
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('training_running')
    const third = await target.call('/train/start', { method: 'POST', body })
    expect(third.status).toBe(409)
    await waitFor(async () => (await status(target)).state === 'succeeded')
    expect(await status(target)).toMatchObject({ state: 'succeeded', exit_code: 0, running: false, signal: null })
  })

  it('stop kills the whole group — a trainer and a grandchild that ignore SIGTERM — and the status says stopped', async () => {
    process.env.FAKE_TRAINER_STEP_SECONDS = '0.5'
    process.env.FAKE_TRAINER_GRANDCHILD = '1'
    process.env.FAKE_TRAINER_IGNORE_TERM = '1'
    const target = await server({ stopGraceMs: 800 })
    const start = await target.call('/train/start', { method: 'POST', body: { preset: 'pilot', max_steps: 100 } })
    expect(start.status).toBe(202)
    const pid = ((await start.json()) as Json).pid as number
    await waitFor(async () => /grandchild pid (\d+)/.test(await logOf(target)))
    const grandchild = Number(/grandchild pid (\d+)/.exec(await logOf(target))?.[1])
    expect((await processGroupMembers(pid))?.sort()).toEqual([pid, grandchild].sort())
    const stop = await target.call('/train/stop', { method: 'POST' })
    expect(stop.status).toBe(200)
    const stopped = (await stop.json()) as Json
    expect(stopped).toMatchObject({ state: 'stopped', running: false, signal: 'SIGKILL', exit_code: null })
    expect(await processGroupMembers(pid)).toEqual([])
    expect(await alive(pid)).toBe(false)
    expect(await alive(grandchild)).toBe(false)
    expect(await status(target)).toMatchObject({ state: 'stopped', running: false })
    expect((stopped.last_log_lines as string[]).join('\n')).toMatch(/Training stopped at .*signal SIGKILL/)
    const again = await target.call('/train/stop', { method: 'POST' })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('no_training_running')
  })

  it('a trainer that honours SIGTERM stops with it, before the grace period ends', async () => {
    process.env.FAKE_TRAINER_STEP_SECONDS = '0.5'
    const target = await server({ stopGraceMs: 30_000 })
    const start = await target.call('/train/start', { method: 'POST', body: { preset: 'pilot', max_steps: 100 } })
    const pid = ((await start.json()) as Json).pid as number
    await waitFor(async () => (await logOf(target)).includes('step 1/'))
    const stopped = (await (await target.call('/train/stop', { method: 'POST' })).json()) as Json
    // SIGTERM sufficed (no SIGKILL after the 30 s grace): what the old "under 10 s" stood for.
    expect(stopped).toMatchObject({ state: 'stopped', signal: 'SIGTERM' })
    expect(await processGroupMembers(pid)).toEqual([])
  })

  it('a crash is reported with the exit code and the last log lines', async () => {
    process.env.FAKE_TRAINER_EXIT = '3'
    const target = await server()
    expect((await target.call('/train/start', { method: 'POST', body: { max_steps: 2 } })).status).toBe(202)
    await waitFor(async () => !(await status(target)).running)
    const final = await status(target)
    expect(final).toMatchObject({ state: 'failed', exit_code: 3, signal: null, error: { code: 'trainer_failed' } })
    expect((final.last_log_lines as string[]).join('\n')).toContain('RuntimeError: fake trainer failure')
    expect(await (await target.call('/train/logs?lines=20')).text()).toContain('Training failed at')
    // A failed run frees the slot.
    delete process.env.FAKE_TRAINER_EXIT
    expect((await target.call('/train/start', { method: 'POST', body: { max_steps: 1 } })).status).toBe(202)
  })

  it('a trainer that cannot start is a clear error, and the slot stays free', async () => {
    const target = await server({ python: '/nonexistent/python3' })
    const response = await target.call('/train/start', { method: 'POST', body: {} })
    expect(response.status).toBe(500)
    const body = (await response.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('spawn_failed')
    expect(body.error.message).toContain('/nonexistent/python3')
    expect(await status(target)).toMatchObject({ state: 'failed', running: false })
  })

  it('the child gets a hardened environment and the token through it, never on its command line', async () => {
    const target = await server()
    const previous = process.env.HOME
    process.env.HOME = '/'
    try {
      const start = (await (await target.call('/train/start', { method: 'POST', body: { max_steps: 1 } })).json()) as Json
      expect((start.command as string[]).join(' ')).not.toContain('test-token')
      expect(start.command).toContain('--smoke')
    } finally {
      process.env.HOME = previous
    }
    await waitFor(async () => (await status(target)).state === 'succeeded')
    const log = await logOf(target)
    expect(log).toContain(`HOME=${join(target.outputs, 'cache', 'home')} PYTHONUNBUFFERED=1 TORCH_COMPILE_DISABLE=1`)
    expect(log).toMatch(/fake trainer: env http:\/\/127\.0\.0\.1:\d+ token set/)
    expect(log).not.toContain('test-token')
  })

  it('closing the server stops a running trainer: no process is left', async () => {
    process.env.FAKE_TRAINER_STEP_SECONDS = '1'
    process.env.FAKE_TRAINER_GRANDCHILD = '1'
    const target = await startOperationsServer()
    const pid = (
      (await (await target.call('/train/start', { method: 'POST', body: { preset: 'pilot', max_steps: 100 } })).json()) as Json
    ).pid as number
    await waitFor(async () =>
      /grandchild pid/.test(await readFile(join(target.outputs, (await status(target)).log_path as string), 'utf8')),
    )
    await target.dispose()
    expect(await processGroupMembers(pid)).toEqual([])
  })
})
