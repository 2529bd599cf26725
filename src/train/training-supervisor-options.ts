/** @module train: what a `TrainingSupervisor` is built with. */
import type { EnvRegistry } from '../core/registry/env-registry.js'
import type { PreparedRun } from './training-run.js'
import type { TrainingSupervisor } from './training-supervisor.js'

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
  /** What the smoke preset trains when a request names no model (default: the tiny local model). */
  smokeModel?: string | undefined
  /** Called after a run succeeds with a hub repo set (the push happens outside this class). */
  afterSuccess?: (run: PreparedRun, supervisor: TrainingSupervisor) => Promise<void>
}
