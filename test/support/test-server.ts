/** Env servers for tests: in this process on an ephemeral loopback port, or as a real `releaseops serve` child. */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import WebSocket from 'ws'
import { defaultEnvId, envRegistry } from '../../src/envs/index.js'
import { parseServerOptions, type ServerOptionsInput } from '../../src/server/server-options.js'
import { type RunningServer, startServer } from '../../src/server/start-server.js'
import { repositoryRoot } from './run-cli.js'

/** Parsed JSON as tests walk it (assertions check the shapes). */
// biome-ignore lint/suspicious/noExplicitAny: assertions walk parsed replies freely
export type Json = any
export type JsonRecord = Record<string, Json>

export async function startTestServer(options: ServerOptionsInput = {}): Promise<RunningServer> {
  return startServer({
    options: parseServerOptions({ host: '127.0.0.1', port: 0, logLevel: 'silent', defaultEnvId: 'releaseops-v1', ...options }),
    registry: envRegistry,
    registryDefaultEnvId: defaultEnvId,
  })
}

export interface ServerProcess {
  url: string
  pid: number
  child: ChildProcess
  output: () => string
  stop: () => Promise<void>
}

/** Every server child still running: killed when this test process exits, whatever the tests did. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Spawns `releaseops serve --port 0 …` from source and waits for its listening line: on readiness, not a
 * fixed budget (a loaded machine starts it late, not wrongly; the test's own timeout is the hang guard).
 * The child is stopped whatever happens: an exit before the line rejects, and one still running when the
 * test process ends (a start the test gave up on included) is killed then (issue 37 item 7).
 */
export function spawnServer(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; command?: readonly string[]; nodeArgs?: readonly string[] } = {},
): Promise<ServerProcess> {
  const command = options.command ?? [
    process.execPath,
    ...(options.nodeArgs ?? []),
    '--import',
    'tsx',
    resolve(repositoryRoot, 'src/cli/run.ts'),
    'serve',
    '--port',
    '0',
    ...args,
  ]
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: repositoryRoot,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  let output = ''
  return new Promise((resolveServer, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[^\s]+)/.exec(output)
      if (!match) return
      child.off('exit', onEarlyExit)
      resolveServer({
        url: match[1] as string,
        pid: child.pid as number,
        child,
        output: () => output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const onEarlyExit = (code: number | null) => reject(new Error(`server exited with ${code}:\n${output}`))
    child.once('exit', onEarlyExit)
  })
}

/** The inspector URL a child started with `--inspect=127.0.0.1:0` printed. */
export function inspectorUrl(output: string): string | undefined {
  return /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(output)?.[1]
}

/** Runs a full garbage collection in another Node process through its inspector; returns its heap in MiB. */
export async function collectGarbage(url: string): Promise<{ heapUsedMiB: number }> {
  const socket = new WebSocket(url)
  await new Promise((resolveOpen, reject) => {
    socket.once('open', resolveOpen)
    socket.once('error', reject)
  })
  let nextId = 1
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<JsonRecord>((resolveCall) => {
      const id = nextId++
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: JsonRecord }
        if (message.id !== id) return
        socket.off('message', onMessage)
        resolveCall(message.result ?? {})
      }
      socket.on('message', onMessage)
      socket.send(JSON.stringify({ id, method, params }))
    })
  await call('HeapProfiler.collectGarbage')
  await call('HeapProfiler.collectGarbage')
  const usage = await call('Runtime.getHeapUsage')
  socket.close()
  return { heapUsedMiB: Number(usage.usedSize) / 1024 / 1024 }
}

/** Resident set size of a process in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(match?.[1] ?? Number.NaN) / 1024
}

/** A WebSocket with a queue of received frames, for protocol tests. */
export class TestSocket {
  private readonly frames: string[] = []
  private readonly waiters: ((frame: string) => void)[] = []
  closeCode: number | undefined
  readonly closed: Promise<number>

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = data.toString()
      const waiter = this.waiters.shift()
      if (waiter) waiter(frame)
      else this.frames.push(frame)
    })
    this.closed = new Promise((resolveClosed) =>
      socket.on('close', (code) => {
        this.closeCode = code
        resolveClosed(code)
      }),
    )
  }

  static open(url: string, headers?: Record<string, string>): Promise<TestSocket> {
    return new Promise((resolveSocket, reject) => {
      const socket = new WebSocket(url, { headers })
      socket.once('open', () => resolveSocket(new TestSocket(socket)))
      socket.once('error', reject)
    })
  }

  next(timeoutMs = 5000): Promise<string> {
    const frame = this.frames.shift()
    if (frame !== undefined) return Promise.resolve(frame)
    return new Promise((resolveFrame, reject) => {
      const timer = setTimeout(() => reject(new Error('no frame within timeout')), timeoutMs)
      this.waiters.push((value) => {
        clearTimeout(timer)
        resolveFrame(value)
      })
    })
  }

  async send(message: unknown): Promise<Record<string, unknown>> {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message))
    return JSON.parse(await this.next()) as Record<string, unknown>
  }

  close(): void {
    this.socket.close()
  }
}

export const wsUrl = (url: string, path = '/ws') => `${url.replace(/^http/, 'ws')}${path}`

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: text ? (JSON.parse(text) as JsonRecord) : {} }
}

export async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as JsonRecord }
}
