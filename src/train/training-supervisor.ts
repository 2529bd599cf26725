/**
 * @module train: one trainer child process at a time, supervised. The child runs in its own process
 * group (`detached`), so a stop signals the whole group (torch worker processes included): SIGTERM,
 * then SIGKILL after a grace period, and any member left once the trainer has exited is killed too — a
 * stopped or crashed run leaves no orphan. Output goes straight to the run's log file (the child writes
 * to it even while the server is busy). The status says how the run ended: exit code or signal, and the
 * last log lines when it failed.
 *
 * ```
 * idle ──start──► running ──exit 0──► succeeded
 *                    │  └─exit≠0/spawn error──► failed
 *                    └──stop──► stopping ──exit──► stopped
 * ```
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { open, writeFile } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import { readLogTail } from './log-tail.js'
import { killGroup, waitForGroupExit } from './process-group.js'
import { trainerCommand, trainerEnvironment } from './trainer-command.js'
import { TrainingStateError } from './training-errors.js'
import type { TrainingStartRequest } from './training-request.js'
import { type PreparedRun, prepareTrainingRun } from './training-run.js'
import { type HubPushStatus, idleTrainingStatus, type TrainingState, type TrainingStatus } from './training-status.js'

export type { HubPushStatus, TrainingState, TrainingStatus } from './training-status.js'

export interface TrainingSupervisorOptions {
  outputsRoot: string
  python: string
  script: string
  registry: EnvRegistry
  defaultEnvId: string
  /** The env server the trainer plays against (known once the server listens). */
  envUrl: () => string
  token: string | undefined
  environment?: NodeJS.ProcessEnv
  /** Time between SIGTERM and SIGKILL on stop (default 10 s). */
  stopGraceMs?: number
  now?: () => Date
  /** Called after a run succeeds with a hub repo set (the push happens outside this class). */
  afterSuccess?: (run: PreparedRun, supervisor: TrainingSupervisor) => Promise<void>
}

const failureTailLines = 40

export class TrainingSupervisor extends EventEmitter {
  private readonly options: TrainingSupervisorOptions
  private current: { run: PreparedRun; child?: ChildProcess; exited?: Promise<void> } | undefined
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
    try {
      run = await prepareTrainingRun({
        request,
        registry: this.options.registry,
        defaultEnvId: this.options.defaultEnvId,
        outputsRoot: this.options.outputsRoot,
        now: this.now(),
      })
    } catch (error) {
      this.state = previous
      throw error
    }
    const command = trainerCommand({
      python: this.options.python,
      script: this.options.script,
      parameters: run.parameters,
      runDir: run.runDir,
      datasetPath: run.datasetPath,
      envUrl: this.options.envUrl(),
    })
    this.current = { run }
    const startedAt = this.now()
    this.snapshot = {
      ...idleTrainingStatus(),
      run_id: run.runId,
      preset: run.parameters.preset,
      env_id: run.parameters.envId,
      model: run.parameters.model,
      started_at: startedAt.toISOString(),
      run_dir: this.relative(run.runDir),
      log_path: this.relative(run.logPath),
      metrics_path: this.relative(run.metricsPath),
      command,
      rows: run.rows,
      parameters: { ...run.parameters },
    }
    try {
      await this.spawnTrainer(run, command, startedAt)
    } catch (error) {
      this.update(
        { ended_at: this.now().toISOString(), error: { code: 'spawn_failed', message: (error as Error).message } },
        'failed',
      )
      throw error
    }
    return this.status()
  }

  private async spawnTrainer(run: PreparedRun, command: string[], startedAt: Date): Promise<void> {
    const log = await open(run.logPath, 'a')
    try {
      await log.write(`Starting ${run.parameters.preset} training at ${startedAt.toISOString()} (run ${run.runId})\n`)
      await log.write(`Command: ${command.map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ')}\n`)
      const child = spawn(command[0] as string, command.slice(1), {
        cwd: run.runDir,
        env: trainerEnvironment({
          base: this.options.environment ?? process.env,
          cacheRoot: `${this.options.outputsRoot}${sep}cache`,
          token: this.options.token,
        }),
        stdio: ['ignore', log.fd, log.fd],
        detached: true,
      })
      const current = this.current as { run: PreparedRun; child?: ChildProcess; exited?: Promise<void> }
      current.child = child
      current.exited = new Promise<void>((resolve) => {
        child.once('exit', (code, signal) => {
          this.onExit(run, code, signal).finally(resolve)
        })
        child.once('error', (error) => {
          if (child.pid === undefined) this.onSpawnError(run, error).finally(resolve)
        })
      })
      // Wait until the process exists (or could not be started) before answering.
      const spawned = await new Promise<boolean>((resolve) => {
        child.once('spawn', () => resolve(true))
        child.once('error', () => resolve(false))
      })
      if (spawned) this.update({ pid: child.pid ?? null }, 'running')
      else await current.exited
    } finally {
      await log.close()
    }
  }

  private async onSpawnError(run: PreparedRun, error: Error): Promise<void> {
    const endedAt = this.now().toISOString()
    const message = `Could not start the trainer (${this.options.python}): ${error.message}`
    await writeFile(run.logPath, `${message}\n`, { flag: 'a' }).catch(() => undefined)
    this.update({ ended_at: endedAt, error: { code: 'spawn_failed', message }, last_log_lines: [message] }, 'failed')
  }

  private async onExit(run: PreparedRun, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    if (this.killTimer) clearTimeout(this.killTimer)
    this.killTimer = undefined
    const pid = this.current?.child?.pid
    if (pid !== undefined) {
      killGroup(pid, 'SIGKILL') // whatever the trainer left behind in its group
      await waitForGroupExit(pid, 5000)
    }
    const state: TrainingState = this.stopRequested ? 'stopped' : code === 0 ? 'succeeded' : 'failed'
    const ended = this.now().toISOString()
    const endLine = `Training ${state} at ${ended}: ${signal ? `signal ${signal}` : `exit code ${code}`}\n`
    await writeFile(run.logPath, endLine, { flag: 'a' }).catch(() => undefined)
    const tail = state === 'succeeded' ? null : (await readLogTail(run.logPath, { lines: failureTailLines })).lines
    this.update(
      {
        ended_at: ended,
        exit_code: code,
        signal,
        last_log_lines: tail,
        error:
          state === 'failed'
            ? {
                code: 'trainer_failed',
                message: signal ? `The trainer was killed by ${signal}.` : `The trainer exited with code ${code}.`,
              }
            : null,
      },
      state,
    )
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
    await current.exited
    return this.status()
  }

  /** For server shutdown: stops a running trainer quickly. */
  async close(): Promise<void> {
    if (this.isActive() && this.current?.child?.pid) await this.stop({ graceMs: 2000 }).catch(() => undefined)
  }
}
