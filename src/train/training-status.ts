/**
 * @module train: what `GET /train/status` answers about the one supervised trainer run (the states of
 * `training-supervisor.ts`).
 */
import { type RunStep, trainerStepName } from './run-steps.js'
import type { PreparedRun } from './training-run.js'

export type TrainingState = 'idle' | 'starting' | 'running' | 'stopping' | 'succeeded' | 'failed' | 'stopped'

export interface HubPushStatus {
  state: 'pushing' | 'pushed' | 'failed'
  repo: string
  path: string
  commit?: string
  error?: string
}

export interface TrainingStatus {
  state: TrainingState
  running: boolean
  run_id: string | null
  preset: string | null
  env_id: string | null
  model: string | null
  pid: number | null
  started_at: string | null
  ended_at: string | null
  elapsed_seconds: number | null
  exit_code: number | null
  signal: string | null
  /** Relative to the outputs root. */
  run_dir: string | null
  log_path: string | null
  metrics_path: string | null
  /** The trainer's command line. */
  command: string[] | null
  /** The run's steps in order (`run-steps.ts`), and the one running or last run. */
  steps: string[] | null
  step: string | null
  rows: number | null
  parameters: Record<string, unknown> | null
  /** The end of the log when the run failed (crash diagnosis without opening the log). */
  last_log_lines: string[] | null
  /** `cause`: the failed step's own last word (a traceback's exception line), `failure-cause.ts`. */
  error: { code: string; message: string; cause?: string } | null
  hub_push: HubPushStatus | null
}

/** The status before any run. */
export function idleTrainingStatus(): TrainingStatus {
  return {
    state: 'idle',
    running: false,
    run_id: null,
    preset: null,
    env_id: null,
    model: null,
    pid: null,
    started_at: null,
    ended_at: null,
    elapsed_seconds: null,
    exit_code: null,
    signal: null,
    run_dir: null,
    log_path: null,
    metrics_path: null,
    command: null,
    steps: null,
    step: null,
    rows: null,
    parameters: null,
    last_log_lines: null,
    error: null,
    hub_push: null,
  }
}

/** The status of a run that is starting: what it runs, where its files are (relative to the outputs root). */
export function startedStatus(options: {
  run: PreparedRun
  steps: readonly RunStep[]
  startedAt: Date
  relative: (path: string) => string
}): TrainingStatus {
  const { run, steps } = options
  return {
    ...idleTrainingStatus(),
    run_id: run.runId,
    preset: run.parameters.preset,
    env_id: run.parameters.envId,
    model: run.parameters.model,
    started_at: options.startedAt.toISOString(),
    run_dir: options.relative(run.runDir),
    log_path: options.relative(run.logPath),
    metrics_path: options.relative(run.metricsPath),
    command: steps.find((step) => step.name === trainerStepName)?.command ?? null,
    steps: steps.map((step) => step.name),
    rows: run.rows,
    parameters: { ...run.parameters },
  }
}
