/** Servers with the operational routes for tests: a temporary outputs root and a trainer process double. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { defaultEnvId, envRegistry } from '../../src/envs/index.js'
import { parseServerOptions, type ServerOptionsInput } from '../../src/server/server-options.js'
import { type RunningServer, startServer } from '../../src/server/start-server.js'
import type { TrainingSettingsInput } from '../../src/train/training-settings.js'

export const token = 'test-token-0123456789abcdef'
export const fakeTrainer = resolve(import.meta.dirname, 'fake-trainer.py')

export interface OperationsServer extends RunningServer {
  outputs: string
  /** fetch with the token. */
  call: (path: string, init?: { method?: string; body?: unknown; token?: string | null }) => Promise<Response>
  dispose: () => Promise<void>
}

export async function startOperationsServer(
  options: { server?: ServerOptionsInput; training?: Partial<TrainingSettingsInput>; environment?: NodeJS.ProcessEnv } = {},
): Promise<OperationsServer> {
  const outputs = await mkdtemp(join(tmpdir(), 'releaseops-ops-'))
  const server = await startServer({
    options: parseServerOptions({
      host: '127.0.0.1',
      port: 0,
      logLevel: 'silent',
      token,
      defaultEnvId: 'releaseops-v2',
      ...options.server,
    }),
    registry: envRegistry,
    registryDefaultEnvId: defaultEnvId,
    training: {
      outputsDir: outputs,
      python: 'python3',
      trainScript: fakeTrainer,
      liveIntervalMs: 50,
      stopGraceMs: 1500,
      // The trainer double stands in for train_grpo.py only: the smoke preset trains a named model here,
      // not the tiny one it would build and warm up with real Python first.
      smokeModel: 'Qwen/Qwen3-0.6B',
      ...options.training,
    },
  })
  const call: OperationsServer['call'] = (path, init = {}) => {
    const headers: Record<string, string> = {}
    const presented = init.token === undefined ? (server.context.options.token ?? null) : init.token
    if (presented) headers.authorization = `Bearer ${presented}`
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    return fetch(`${server.url}${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  }
  return {
    ...server,
    outputs,
    call,
    dispose: async () => {
      await server.close()
      await rm(outputs, { recursive: true, force: true })
    },
  }
}

/** Polls until `check` is true (or fails after `timeoutMs`). */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((done) => setTimeout(done, 50))
  }
}
