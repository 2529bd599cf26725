/**
 * @module train/smoke: `releaseops train smoke`: proves the whole training path on this machine, as CI runs it.
 *
 * ```
 * tiny random Qwen3 (config + Qwen3 tokenizer files, TRL's qwen3.jinja)
 *   → supervised warm-up on scripted trajectories recorded through our agent loop (cached by content)
 *   → this server (token, loopback) → POST /train/start: python/train_grpo.py --smoke, TRL GRPO with
 *     environment_factory = ReleaseOpsEnv over HTTP
 *   → checks from the server's own counters, the log history, the rollout log and the run folder
 *     (at least one call the env accepted)
 *   → the learning probe: warm vs trained model on held-out episodes, same sampling seed, each
 *     sample scored by the env; a paired interval over rows above 0 (reward or accepted calls), not
 *     one tool's gain, and not a model that learned to call less
 *   → a second run stopped mid-way: status "stopped", nothing left of its process group
 * ```
 */
import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { z } from 'zod'
import { errorReplySchema } from '../../core/wire/openenv-reply.js'
import { packageRoot } from '../training-settings.js'
import { type Learning, learningCheckName, runLearningProbe } from './learning-probe.js'
import { evidenceChecks, plotCheck, readRunEvidence, toolCallTally } from './read-run-evidence.js'
import type { SmokeCheck } from './smoke-checks.js'
import { parseReply, printCounters, SmokeClient, waitForEnd } from './smoke-client.js'
import { type trainingMetricsReplySchema, trainingStartReplySchema } from './smoke-replies.js'
import { checkRlPython, log, runPython, type SmokeServerStarter, SmokeStepError, sleep } from './smoke-steps.js'
import { runStopCheck } from './stop-check.js'
import { planTinyModel } from './tiny-model-plan.js'
import { tinyModelFolders, warmupDefaults } from './tiny-model-settings.js'

/** The env the smoke trains on: the default env. */
export const smokeEnvId = 'releaseops-v3'

export interface SmokeOptions {
  python?: string
  work: string
  env: string
  steps: number
  warmupSteps: number
  warmupRows: number
  learningRate: number
  /** Sampling temperature of GRPO, the probe and the warm-up's emission check. */
  temperature: number
  stopCheck: boolean
  report?: string
}

async function timed<T>(timings: Record<string, number>, name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await run()
  } finally {
    timings[name] = Math.round((performance.now() - started) / 100) / 10
    log(`${name}: ${timings[name]} s`)
  }
}

async function prepareModel(
  options: SmokeOptions & { python: string; outputsRoot: string; work: string },
  timings: Record<string, number>,
) {
  const plan = await timed(timings, 'record warm-up trajectories', () =>
    planTinyModel({
      envId: options.env,
      outputsRoot: options.outputsRoot,
      trajectoriesPath: join(options.work, 'warmup-trajectories.jsonl'),
      warmupSteps: options.warmupSteps,
      warmupRows: options.warmupRows,
      temperature: options.temperature,
      minToolCallRate: warmupDefaults.minToolCallRate,
    }),
  )
  if (plan.cached) {
    log(`warmed model cached at ${plan.warm} (same trajectories and settings)`)
    return
  }
  for (const step of plan.steps) {
    await timed(timings, step.name, () => runPython({ python: options.python, args: step.args, label: step.name }))
  }
  await plan.stamp()
}

type SmokeFlags = SmokeOptions & { startServer: SmokeServerStarter }

/** What the steps of one smoke share: its flags, paths, timings and the checks so far. */
interface SmokeRun {
  flags: SmokeFlags
  python: string
  work: string
  outputsRoot: string
  timings: Record<string, number>
  checks: SmokeCheck[]
}

export async function runTrainSmoke(flags: SmokeFlags): Promise<void> {
  const started = performance.now()
  const python = flags.python ?? join(packageRoot, '.venv-rl', 'bin', 'python')
  const work = resolve(flags.work)
  const run: SmokeRun = { flags, python, work, outputsRoot: join(work, 'outputs'), timings: {}, checks: [] }
  if (flags.steps < 2) throw new SmokeStepError('too_few_steps', 'The smoke needs at least 2 optimisation steps.')
  await timed(run.timings, 'check RL python', () => checkRlPython(python))
  await prepareModel({ ...flags, python, outputsRoot: run.outputsRoot, work }, run.timings)
  const token = randomBytes(24).toString('hex')
  const server = await startSmokeServer(run, token)
  log(`server ${server.url} (token set; outputs root ${run.outputsRoot})`)
  const client = new SmokeClient(server.url, token)
  let calls = { accepted_tool_calls: 0, rejected_tool_calls: 0 }
  let learning: Learning | null = null
  try {
    const live = client.live()
    const runId = await startRun(run, client)
    const status = await timed(run.timings, 'GRPO run', () => waitForEnd(client, 15 * 60_000))
    await sleep(1200)
    live.stop()
    const evidence = await readRunEvidence(client, flags.env, runId)
    printCounters(evidence.counters, flags.env)
    calls = toolCallTally(evidence.counters, flags.env)
    run.checks.push(...evidenceChecks({ env: flags.env, status, evidence, calls, live }))
    run.checks.push(await plotCheck(client))
    logRun(status, evidence.metrics.log_history)
    learning = await probeLearning(run, { runId, succeeded: status.state === 'succeeded' })
    if (flags.stopCheck)
      run.checks.push(...(await timed(run.timings, 'stop check', () => runStopCheck({ client, env: flags.env }))))
  } finally {
    await server.close()
  }
  run.timings.total = Math.round((performance.now() - started) / 100) / 10
  await finishSmoke(run, { calls, learning })
}

function startSmokeServer(run: SmokeRun, token: string) {
  return run.flags.startServer({
    envId: run.flags.env,
    token,
    training: {
      outputsDir: run.outputsRoot,
      python: run.python,
      trainScript: join(packageRoot, 'python', 'train_grpo.py'),
      liveIntervalMs: 500,
      stopGraceMs: 5000,
    },
  })
}

/** The smoke's `POST /train/start` body. */
export function smokeStartBody(flags: SmokeOptions): Record<string, unknown> {
  return {
    preset: 'smoke',
    env_id: flags.env,
    model_path: tinyModelFolders.warm,
    max_steps: flags.steps,
    // 4 prompts × 4 samples a step: with 2 prompts a step the learning probe's verdict turned on the seed.
    num_generations: 4,
    per_device_train_batch_size: 16,
    // max_completion_length: the preset's, measured (one tool round of the env's ladder + room).
    temperature: flags.temperature,
    learning_rate: flags.learningRate,
    max_rows: 64,
    seed: 7,
  }
}

/** Starts the run, checking that a start without the token and a second start are refused; its id. */
async function startRun(run: SmokeRun, client: SmokeClient): Promise<string> {
  const anonymous = await client.request('POST', '/train/start', {}, { token: false })
  run.checks.push({
    name: 'start without the token is refused',
    ok: anonymous.status === 401,
    detail: `HTTP ${anonymous.status}`,
  })
  const body = smokeStartBody(run.flags)
  const start = await client.request('POST', '/train/start', body)
  if (start.status !== 202)
    throw new SmokeStepError('start_failed', `POST /train/start: HTTP ${start.status} ${JSON.stringify(start.json)}`)
  const started = parseReply(trainingStartReplySchema, 'POST /train/start', start)
  log(`run ${started.run_id} started: ${started.command.join(' ')}`)
  const second = await client.request('POST', '/train/start', body)
  const secondCode = errorReplySchema.safeParse(second.json).data?.error.code
  run.checks.push({
    name: 'a second concurrent start is refused',
    ok: second.status === 409 && secondCode === 'training_running',
    detail: `HTTP ${second.status} ${secondCode}`,
  })
  return started.run_id
}

function logRun(
  status: Awaited<ReturnType<typeof waitForEnd>>,
  rows: z.output<typeof trainingMetricsReplySchema>['log_history'],
): void {
  if (status.state !== 'succeeded') log(`trainer log tail:\n${(status.last_log_lines ?? []).join('\n')}`)
  const steps = rows.filter((row) => typeof row.loss === 'number' && !('train_runtime' in row))
  for (const row of steps) {
    log(
      `  step ${row.step}: loss ${row.loss} grad_norm ${row.grad_norm} reward ${row.reward} reward_std ${row.reward_std} tools/call_frequency ${row['tools/call_frequency']} tools/failure_frequency ${row['tools/failure_frequency']}`,
    )
  }
}

/** The learning probe of a run that succeeded (its verdict written beside the run); a failed check otherwise. */
async function probeLearning(run: SmokeRun, options: { runId: string; succeeded: boolean }): Promise<Learning | null> {
  if (!options.succeeded) {
    run.checks.push({ name: learningCheckName, ok: false, detail: 'the run did not succeed' })
    return null
  }
  const probe = await timed(run.timings, 'learning probe', () =>
    runLearningProbe({
      python: run.python,
      envId: run.flags.env,
      work: run.work,
      before: join(run.outputsRoot, tinyModelFolders.warm),
      after: join(run.outputsRoot, 'runs', options.runId, 'final'),
      temperature: run.flags.temperature,
      startServer: run.flags.startServer,
    }),
  )
  run.checks.push(probe.check)
  // Beside the run, so the dashboard's runs view shows the verdict too.
  await writeFile(
    join(run.outputsRoot, 'runs', options.runId, 'learning.json'),
    `${JSON.stringify({ ...probe.learning, check: probe.check }, null, 2)}\n`,
  )
  return probe.learning
}

/** Logs every check, writes the report when asked, and fails when a check failed. */
async function finishSmoke(
  run: SmokeRun,
  outcome: { calls: { accepted_tool_calls: number; rejected_tool_calls: number }; learning: Learning | null },
): Promise<void> {
  const { checks, timings } = run
  const { learning } = outcome
  for (const check of checks) log(`${check.ok ? 'PASS' : 'FAIL'} ${check.name}: ${check.detail}`)
  const failed = checks.filter((check) => !check.ok)
  log(`${checks.length - failed.length}/${checks.length} checks passed in ${timings.total} s (${JSON.stringify(timings)})`)
  if (learning) log(`learning (${learning.metric}, held-out ${learning.held_out_split}): ${learning.before} → ${learning.after}`)
  if (run.flags.report) {
    const report = { ...outcome.calls, learning, checks, timings }
    await writeFile(run.flags.report, `${JSON.stringify(report, null, 2)}\n`)
  }
  if (failed.length > 0) {
    throw new SmokeStepError('smoke_failed', `${failed.length} check(s) failed: ${failed.map((check) => check.name).join('; ')}`)
  }
}
