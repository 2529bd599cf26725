/**
 * @module train: one training run at a time, supervised. A run is a few steps in order (`run-steps.ts`:
 * the trainer, and for the smoke preset's tiny model its preparation and probe), each a child process
 * in its own process group (`detached`), so a stop signals the whole group (torch worker processes
 * included): SIGTERM, then SIGKILL after a grace period, and any member left once a step has exited is
 * killed too — a stopped or crashed run leaves no orphan. Output goes straight to the run's log file
 * (the child writes to it even while the server is busy). The status says which step runs and how the
 * run ended: exit code or signal, the failed step, its cause (`failure-cause.ts`) and the last log lines.
 *
 * ```
 * idle ──start──► running ──last step exits 0──► succeeded
 *                    │  └─a step exits ≠0 / cannot start──► failed
 *                    └──stop──► stopping ──exit──► stopped
 * ```
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { open, writeFile } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import { failedRunError } from './failure-cause.js'
import { readLogTail } from './log-tail.js'
import { killGroup, waitForGroupExit } from './process-group.js'
import { type RunStep, runSteps } from './run-steps.js'
import { trainerEnvironment } from './trainer-command.js'
import { TrainingStateError } from './training-errors.js'
import type { TrainingStartRequest } from './training-request.js'
import { type PreparedRun, prepareTrainingRun } from './training-run.js'
import {
  type HubPushStatus,
  idleTrainingStatus,
  startedStatus,
  type TrainingState,
  type TrainingStatus,
} from './training-status.js'
import type { TrainingSupervisorOptions } from './training-supervisor-options.js'

export type { HubPushStatus, TrainingState, TrainingStatus } from './training-status.js'
export type { TrainingSupervisorOptions } from './training-supervisor-options.js'

const failureTailLines = 40

interface CurrentRun {
  run: PreparedRun
  steps: RunStep[]
  index: number
  child?: ChildProcess
  /** Settles once the run has ended (every step done, or one failed or stopped). */
  finished: Promise<void>
  finish: () => void
}

export class TrainingSupervisor extends EventEmitter {
  private readonly options: TrainingSupervisorOptions
  private current: CurrentRun | undefined
  private state: TrainingState = 'idle'
  private snapshot: TrainingStatus
  private stopRequested = false
  private killTimer: NodeJS.Timeout | undefined

  constructor(options: TrainingSupervisorOptions) {
    super()
    this.options = options
    this.snapshot = idleTrainingStatus()
  }

  private now(): Date {
    return this.options.now?.() ?? new Date()
  }

  private relative(path: string): string {
    return relative(this.options.outputsRoot, path).split(sep).join('/')
  }

  /** The current status (elapsed time computed now). */
  status(): TrainingStatus {
    const status = { ...this.snapshot, state: this.state, running: this.isActive() }
    if (status.started_at !== null) {
      const end = status.ended_at === null ? this.now().getTime() : Date.parse(status.ended_at)
      status.elapsed_seconds = Math.round((end - Date.parse(status.started_at)) / 100) / 10
    }
    return status
  }

  isActive(): boolean {
    return this.state === 'starting' || this.state === 'running' || this.state === 'stopping'
  }

  /** Paths of the latest run (for logs, metrics, plots), or undefined before the first run. */
  latestRun(): PreparedRun | undefined {
    return this.current?.run
  }

  private update(patch: Partial<TrainingStatus>, state?: TrainingState): void {
    if (state !== undefined) this.state = state
    this.snapshot = { ...this.snapshot, ...patch, state: this.state }
    const status = this.status()
    this.emit('status', status)
    const run = this.current?.run
    if (run) writeFile(run.statusPath, `${JSON.stringify(status, null, 1)}\n`).catch(() => undefined)
  }

  /** Records the Hub push of the latest run (used by `afterSuccess`). */
  setHubPush(hubPush: HubPushStatus): void {
    this.update({ hub_push: hubPush })
  }

  async start(request: TrainingStartRequest): Promise<TrainingStatus> {
    if (this.isActive()) {
      throw new TrainingStateError({
        code: 'training_running',
        message: `A training run is already ${this.state} (${this.snapshot.run_id ?? 'starting'}); stop it first (POST /train/stop).`,
        details: { run_id: this.snapshot.run_id },
      })
    }
    // Claimed synchronously: a second start arriving during the awaits below is refused above.
    const previous = this.state
    this.state = 'starting'
    this.stopRequested = false
    let run: PreparedRun
    let steps: RunStep[]
    try {
      run = await prepareTrainingRun({
        request,
        registry: this.options.registry,
        defaultEnvId: this.options.defaultEnvId,
        outputsRoot: this.options.outputsRoot,
        now: this.now(),
        smokeModel: this.options.smokeModel,
        trainerEnvironment: this.childEnvironment(),
      })
      steps = await runSteps({
        python: this.options.python,
        script: this.options.script,
        run,
        envUrl: this.options.envUrl(),
        outputsRoot: this.options.outputsRoot,
      })
    } catch (error) {
      this.state = previous
      throw error
    }
    let finish: () => void = () => undefined
    const finished = new Promise<void>((resolve) => {
      finish = resolve
    })
    this.current = { run, steps, index: 0, finished, finish }
    const startedAt = this.now()
    this.snapshot = startedStatus({ run, steps, startedAt, relative: (path) => this.relative(path) })
    const header = `Starting ${run.parameters.preset} training at ${startedAt.toISOString()} (run ${run.runId})\n`
    await writeFile(run.logPath, header, { flag: 'a' })
    // A step that cannot start ends the run as failed (spawn_failed) before this answers.
    if (!(await this.spawnStep(0))) await finished
    return this.status()
  }

  /** The environment every step runs in (caches under the outputs root, the token, unbuffered output). */
  private childEnvironment(): NodeJS.ProcessEnv {
    return trainerEnvironment({
      base: this.options.environment ?? process.env,
      cacheRoot: `${this.options.outputsRoot}${sep}cache`,
      token: this.options.token,
    })
  }

  /** Starts step `index`; false when its process could not be started (the run has then ended). */
  private async spawnStep(index: number): Promise<boolean> {
    const current = this.current as CurrentRun
    const { run, steps } = current
    const step = steps[index] as RunStep
    current.index = index
    const log = await open(run.logPath, 'a')
    try {
      await log.write(`Step ${index + 1}/${steps.length} ${step.name}\n`)
      await log.write(`Command: ${step.command.map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ')}\n`)
      const child = spawn(step.command[0] as string, step.command.slice(1), {
        cwd: step.cwd,
        env: this.childEnvironment(),
        stdio: ['ignore', log.fd, log.fd],
        detached: true,
      })
      current.child = child
      child.once('exit', (code, signal) => void this.onExit(child, code, signal))
      child.once('error', (error) => {
        if (child.pid === undefined) void this.onSpawnError(step, error)
      })
      // Wait until the process exists (or could not be started) before answering.
      const spawned = await new Promise<boolean>((resolve) => {
        child.once('spawn', () => resolve(true))
        child.once('error', () => resolve(false))
      })
      if (spawned) this.update({ pid: child.pid ?? null, step: step.name }, 'running')
      return spawned
    } finally {
      await log.close()
    }
  }

  private async onSpawnError(step: RunStep, error: Error): Promise<void> {
    const { run } = this.current as CurrentRun
    const message = `Could not start ${step.name} (${step.command[0]}): ${error.message}`
    await writeFile(run.logPath, `${message}\n`, { flag: 'a' }).catch(() => undefined)
    this.update(
      { ended_at: this.now().toISOString(), error: { code: 'spawn_failed', message }, last_log_lines: [message] },
      'failed',
    )
    ;(this.current as CurrentRun).finish()
  }

  /** A step's process exited: its `after` runs, then the next step starts, or the run ends. */
  private async onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const current = this.current as CurrentRun
    if (this.killTimer) clearTimeout(this.killTimer)
    this.killTimer = undefined
    if (child.pid !== undefined) {
      killGroup(child.pid, 'SIGKILL') // whatever the step left behind in its group
      await waitForGroupExit(child.pid, 5000)
    }
    const step = current.steps[current.index] as RunStep
    let afterError: Error | null = null
    if (code === 0 && !this.stopRequested && step.after) await step.after().catch((error: Error) => (afterError = error))
    if (code === 0 && afterError === null && !this.stopRequested && current.index + 1 < current.steps.length) {
      // A next step that cannot even be tried (its log cannot be opened) ends the run as failed.
      const started = await this.spawnStep(current.index + 1).then(
        () => null,
        (error: Error) => error,
      )
      if (started === null) return
      afterError = started
    }
    await this.endRun({ code, signal, afterError })
    current.finish()
  }

  private async endRun(outcome: { code: number | null; signal: NodeJS.Signals | null; afterError: Error | null }): Promise<void> {
    const { run, steps, index } = this.current as CurrentRun
    const { code, signal, afterError } = outcome
    if (this.killTimer) clearTimeout(this.killTimer)
    this.killTimer = undefined
    const state: TrainingState = this.stopRequested ? 'stopped' : code === 0 && afterError === null ? 'succeeded' : 'failed'
    const ended = this.now().toISOString()
    if (afterError) await writeFile(run.logPath, `${afterError.message}\n`, { flag: 'a' }).catch(() => undefined)
    const endLine = `Training ${state} at ${ended}: ${signal ? `signal ${signal}` : `exit code ${code}`}\n`
    await writeFile(run.logPath, endLine, { flag: 'a' }).catch(() => undefined)
    const tail = state === 'succeeded' ? null : (await readLogTail(run.logPath, { lines: failureTailLines })).lines
    const error =
      state === 'failed'
        ? failedRunError({
            step: (steps[index] as RunStep).name,
            steps: steps.length,
            code,
            signal,
            afterError,
            tail: tail ?? [],
          })
        : null
    this.update({ ended_at: ended, exit_code: code, signal, last_log_lines: tail, error }, state)
    if (state === 'succeeded' && run.parameters.hubRepo !== undefined && this.options.afterSuccess) {
      await this.options.afterSuccess(run, this).catch(() => undefined)
    }
  }

  /** Stops the running trainer (its whole process group); resolves once it has exited. */
  async stop(options: { graceMs?: number } = {}): Promise<TrainingStatus> {
    const current = this.current
    if (!this.isActive() || !current?.child?.pid) {
      throw new TrainingStateError({ code: 'no_training_running', message: 'No training run is in progress.' })
    }
    const pid = current.child.pid
    if (this.state !== 'stopping') {
      this.stopRequested = true
      this.update({}, 'stopping')
      killGroup(pid, 'SIGTERM')
      this.killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), options.graceMs ?? this.options.stopGraceMs ?? 10_000)
      this.killTimer.unref()
    }
    await current.finished
    return this.status()
  }

  /** For server shutdown: stops a running trainer quickly. */
  async close(): Promise<void> {
    if (this.isActive() && this.current?.child?.pid) await this.stop({ graceMs: 2000 }).catch(() => undefined)
  }
}
