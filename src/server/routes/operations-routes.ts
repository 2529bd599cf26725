/**
 * @module server/routes: everything beyond env play, wired in one place: env usage counters, training
 * orchestration (`/train/*`), outputs, Hub pushes, eval jobs (`/api/eval`) and the dashboard (`/ui/`).
 * The trainer and the eval jobs are stopped when the server closes (shutdown job hooks; a running eval job is
 * recorded `interrupted`).
 */
import type { FastifyInstance } from 'fastify'
import type { EnvRegistry } from '../../core/registry/env-registry.js'
import { policyRegistry } from '../../envs/index.js'
import { EvalJobRunner } from '../../eval/eval-job.js'
import { pushToHub } from '../../train/hub-push.js'
import { makeOutputsDirectory } from '../../train/make-outputs-directory.js'
import {
  defaultTrainingSettings,
  resolveTrainingSettings,
  type TrainingSettings,
  type TrainingSettingsInput,
} from '../../train/training-settings.js'
import { TrainingSupervisor } from '../../train/training-supervisor.js'
import type { ServerContext } from '../server-context.js'
import type { EnvUsageCounters } from '../usage/env-usage-counters.js'
import { registerCountersRoutes } from './counters-routes.js'
import { registerDashboardRoutes } from './dashboard-routes.js'
import { registerEvalJobRoutes } from './eval-job-routes.js'
import { registerHubRoutes } from './hub-routes.js'
import { localServerUrl } from './operations-support.js'
import { registerOriginalRoutes } from './original-routes.js'
import { registerOutputsRoutes } from './outputs-routes.js'
import { registerTrainingRoutes } from './training-routes.js'

export interface OperationsOptions {
  context: ServerContext
  /** The registry envs are played from (datasets for training and eval jobs). */
  registry: EnvRegistry
  usage: EnvUsageCounters
  /** Outputs root, trainer Python and script, Hub token; defaults from the environment. */
  training?: TrainingSettingsInput
}

export interface Operations {
  settings: TrainingSettings
  supervisor: TrainingSupervisor
  evalJobs: EvalJobRunner
}

export function registerOperations(app: FastifyInstance, options: OperationsOptions): Operations {
  const { context } = options
  const settings = resolveTrainingSettings(
    options.training ?? defaultTrainingSettings({ environment: process.env, cwd: process.cwd() }),
  )
  const clustered = context.forward !== undefined
  const supervisor = new TrainingSupervisor({
    outputsRoot: settings.outputsDir,
    python: settings.python,
    script: settings.trainScript,
    registry: options.registry,
    defaultEnvId: context.defaultHost.id,
    envUrl: () => localServerUrl(app, context.options.host),
    token: context.options.token,
    stopGraceMs: settings.stopGraceMs,
    smokeModel: settings.smokeModel,
    afterSuccess: async (run, owner) => {
      const repo = run.parameters.hubRepo as string
      const path = `runs/${run.runId}/best_by_reward`
      owner.setHubPush({ state: 'pushing', repo, path })
      try {
        const result = await pushToHub({
          fetch: context.outbound.fetch,
          outputsRoot: settings.outputsDir,
          path,
          repo,
          token: settings.hubToken,
          createIfMissing: true,
          ...(settings.hubUrl ? { hubUrl: settings.hubUrl } : {}),
          commitTitle: `releaseops: best checkpoint of run ${run.runId}`,
        })
        owner.setHubPush({ state: 'pushed', repo, path, ...(result.commit ? { commit: result.commit } : {}) })
      } catch (error) {
        owner.setHubPush({ state: 'failed', repo, path, error: (error as Error).message })
      }
    },
  })
  const evalJobs = new EvalJobRunner({
    outputsRoot: settings.outputsDir,
    envs: options.registry,
    policies: policyRegistry,
    defaultEnvId: context.defaultHost.id,
    maxModelReplyBytes: context.options.maxModelReplyBytes,
    makeDirectory: makeOutputsDirectory,
    fetch: context.outbound.fetch,
  })
  const outbound = context.outbound.policy
  registerCountersRoutes(app, { context, usage: options.usage })
  registerTrainingRoutes(app, {
    supervisor,
    outputsRoot: settings.outputsDir,
    clustered,
    liveIntervalMs: settings.liveIntervalMs,
    outbound,
  })
  registerOutputsRoutes(app, { outputsRoot: settings.outputsDir })
  const push = registerHubRoutes(app, { settings, clustered, fetch: context.outbound.fetch })
  registerEvalJobRoutes(app, { jobs: evalJobs, clustered, outbound })
  registerOriginalRoutes(app, { supervisor, jobs: evalJobs, clustered, push, outbound })
  registerDashboardRoutes(app, { registry: options.registry, policies: policyRegistry })
  // Job hooks of the close sequence (src/server/shutdown/server-shutdown.ts): they run once the
  // connections are drained, before the process exits.
  context.shutdown.addJobHook('eval-jobs', () => evalJobs.markInterruptedOnShutdown())
  context.shutdown.addJobHook('training', () => supervisor.close())
  return { settings, supervisor, evalJobs }
}
