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
import { errorReplySchema } from '../../core/wire/openenv-reply.js'
import { packageRoot } from '../training-settings.js'
import { type Learning, learningCheckName, runLearningProbe } from './learning-probe.js'
import { checkSmokeRun, type SmokeCheck } from './smoke-checks.js'
import { parseReply, printCounters, SmokeClient, waitForEnd } from './smoke-client.js'
import {
  outputsListingSchema,
  rolloutLineSchema,
  serverCountersSchema,
  trainingMetricsReplySchema,
  trainingStartReplySchema,
  trainingStatusReplySchema,
} from './smoke-replies.js'
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

export async function runTrainSmoke(flags: SmokeOptions & { startServer: SmokeServerStarter }): Promise<void> {
  const started = performance.now()
  const timings: Record<string, number> = {}
  const python = flags.python ?? join(packageRoot, '.venv-rl', 'bin', 'python')
  const work = resolve(flags.work)
  const outputsRoot = join(work, 'outputs')
  if (flags.steps < 2) throw new SmokeStepError('too_few_steps', 'The smoke needs at least 2 optimisation steps.')
  await timed(timings, 'check RL python', () => checkRlPython(python))
  await prepareModel({ ...flags, python, outputsRoot, work }, timings)
  const token = randomBytes(24).toString('hex')
  const server = await flags.startServer({
    envId: flags.env,
    token,
    training: {
      outputsDir: outputsRoot,
      python,
      trainScript: join(packageRoot, 'python', 'train_grpo.py'),
      liveIntervalMs: 500,
      stopGraceMs: 5000,
    },
  })
  log(`server ${server.url} (token set; outputs root ${outputsRoot})`)
  const client = new SmokeClient(server.url, token)
  const checks: SmokeCheck[] = []
  const calls = { accepted_tool_calls: 0, rejected_tool_calls: 0 }
  let learning: Learning | null = null
  try {
    const anonymous = await client.request('POST', '/train/start', {}, { token: false })
    checks.push({ name: 'start without the token is refused', ok: anonymous.status === 401, detail: `HTTP ${anonymous.status}` })
    const live = client.live()
    const body = {
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
    const start = await client.request('POST', '/train/start', body)
    if (start.status !== 202)
      throw new SmokeStepError('start_failed', `POST /train/start: HTTP ${start.status} ${JSON.stringify(start.json)}`)
    const started = parseReply(trainingStartReplySchema, 'POST /train/start', start)
    const runId = started.run_id
    log(`run ${runId} started: ${started.command.join(' ')}`)
    const second = await client.request('POST', '/train/start', body)
    const secondCode = errorReplySchema.safeParse(second.json).data?.error.code
    checks.push({
      name: 'a second concurrent start is refused',
      ok: second.status === 409 && secondCode === 'training_running',
      detail: `HTTP ${second.status} ${secondCode}`,
    })
    const status = await timed(timings, 'GRPO run', () => waitForEnd(client, 15 * 60_000))
    await sleep(1200)
    live.stop()
    const counters = await client.parsed(serverCountersSchema, 'GET', `/counters?env=${flags.env}&recent=10000`)
    const metrics = await client.parsed(trainingMetricsReplySchema, 'GET', '/train/metrics')
    const listing = await client.parsed(outputsListingSchema, 'GET', `/outputs/ls?path=runs/${runId}&depth=3`)
    const files = (listing.entries ?? []).map((entry) => entry.path.replace(`runs/${runId}/`, ''))
    const rolloutsText = (
      await client.bytes(`/outputs/file?path=runs/${runId}/rollouts.jsonl`).catch(() => Buffer.from(''))
    ).toString()
    const rollouts = rolloutsText
      .split('\n')
      .filter(Boolean)
      .map((line, index) =>
        parseReply(rolloutLineSchema, `rollouts.jsonl line ${index + 1}`, { status: 200, json: JSON.parse(line) }),
      )
    printCounters(counters, flags.env)
    const envCounters = counters.envs[flags.env]
    calls.accepted_tool_calls = (envCounters?.tool_calls_total ?? 0) - (envCounters?.tool_errors ?? 0)
    calls.rejected_tool_calls = envCounters?.tool_errors ?? 0
    checks.push({
      name: 'the env accepted some of the trainer’s tool calls',
      ok: calls.accepted_tool_calls > 0,
      detail: `accepted ${calls.accepted_tool_calls}, rejected ${calls.rejected_tool_calls} (server counters)`,
    })
    checks.push(
      ...checkSmokeRun({
        envId: flags.env,
        state: String(status.state),
        exitCode: status.exit_code,
        rows: metrics.log_history,
        rollouts,
        counters,
        files,
      }),
    )
    checks.push({
      name: 'live feed streamed status and metrics',
      ok:
        (live.counts.status ?? 0) > 0 &&
        (live.counts.metrics ?? 0) > 0 &&
        trainingStatusReplySchema.safeParse(live.last.status).data?.state === status.state,
      detail: JSON.stringify(live.counts),
    })
    const png = await client.bytes('/train/plot.png')
    checks.push({
      name: 'plot.png rendered',
      ok: png.subarray(1, 4).toString() === 'PNG' && png.length > 1000,
      detail: `${png.length} bytes`,
    })
    if (status.state !== 'succeeded') log(`trainer log tail:\n${(status.last_log_lines ?? []).join('\n')}`)
    const steps = metrics.log_history.filter((row) => typeof row.loss === 'number' && !('train_runtime' in row))
    for (const row of steps) {
      log(
        `  step ${row.step}: loss ${row.loss} grad_norm ${row.grad_norm} reward ${row.reward} reward_std ${row.reward_std} tools/call_frequency ${row['tools/call_frequency']} tools/failure_frequency ${row['tools/failure_frequency']}`,
      )
    }
    if (status.state === 'succeeded') {
      const probe = await timed(timings, 'learning probe', () =>
        runLearningProbe({
          python,
          envId: flags.env,
          work,
          before: join(outputsRoot, tinyModelFolders.warm),
          after: join(outputsRoot, 'runs', runId, 'final'),
          temperature: flags.temperature,
          startServer: flags.startServer,
        }),
      )
      learning = probe.learning
      checks.push(probe.check)
      // Beside the run, so the dashboard's runs view shows the verdict too.
      await writeFile(
        join(outputsRoot, 'runs', runId, 'learning.json'),
        `${JSON.stringify({ ...learning, check: probe.check }, null, 2)}\n`,
      )
    } else {
      checks.push({ name: learningCheckName, ok: false, detail: 'the run did not succeed' })
    }
    if (flags.stopCheck) checks.push(...(await timed(timings, 'stop check', () => runStopCheck({ client, env: flags.env }))))
  } finally {
    await server.close()
  }
  timings.total = Math.round((performance.now() - started) / 100) / 10
  for (const check of checks) log(`${check.ok ? 'PASS' : 'FAIL'} ${check.name}: ${check.detail}`)
  const failed = checks.filter((check) => !check.ok)
  log(`${checks.length - failed.length}/${checks.length} checks passed in ${timings.total} s (${JSON.stringify(timings)})`)
  if (learning) log(`learning (${learning.metric}, held-out ${learning.held_out_split}): ${learning.before} → ${learning.after}`)
  if (flags.report) {
    const report = { ...calls, learning, checks, timings }
    await writeFile(flags.report, `${JSON.stringify(report, null, 2)}\n`)
  }
  if (failed.length > 0) {
    throw new SmokeStepError('smoke_failed', `${failed.length} check(s) failed: ${failed.map((check) => check.name).join('; ')}`)
  }
}
