/**
 * @module eval: runs a slice of (policy, row) episodes in this thread. Workers call the same code,
 * so one worker and many give the same records.
 */

import { runPolicyEpisode } from '../agent/run-policy-episode.js'
import type { Env } from '../core/env/env-api.js'
import type { DatasetRow } from '../core/env/env-dataset.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import type { Policy } from '../core/policy/policy.js'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import type { PolicyRegistry } from '../core/registry/policy-registry.js'
import { type EpisodeRecord, rowWithoutPrompt } from './episode-record.js'

export interface EpisodeTask {
  index: number
  rowIndex: number
  policy: string
}

export interface EpisodeRunnerOptions {
  envId: string
  rows: readonly DatasetRow[]
  envs: EnvRegistry
  policies: PolicyRegistry
  recordSteps: boolean
  maxEpisodeSteps?: number
}

/** Returns a function that runs one task; envs and policies are built once and reused across resets. */
export function createEpisodeRunner(options: EpisodeRunnerOptions): (task: EpisodeTask) => EpisodeRecord {
  const registration = options.envs.get(options.envId)
  const dataset = registration.dataset
  const summarize = registration.summarizeEpisode
  if (!summarize)
    throw new InvalidInputError({
      code: 'no_episode_summary',
      message: `Env ${options.envId} declares no episode summary; it cannot be evaluated.`,
      issues: [],
    })
  const env: Env = options.envs.make(
    options.envId,
    options.maxEpisodeSteps === undefined ? {} : { maxEpisodeSteps: options.maxEpisodeSteps },
  )
  const policies = new Map<string, Policy>()
  return (task) => {
    const row = options.rows[task.rowIndex] as DatasetRow
    let policy = policies.get(task.policy)
    if (!policy) {
      policy = options.policies.create(options.envId, task.policy)
      policies.set(task.policy, policy)
    }
    const reset = dataset ? dataset.toResetParams(row) : { seed: row.seed }
    const result = runPolicyEpisode({ env, policy, reset, recordSteps: options.recordSteps })
    const outcome = summarize({ info: result.info, terminated: result.terminated, truncated: result.truncated })
    return {
      index: task.index,
      rowIndex: task.rowIndex,
      policy: task.policy,
      row: rowWithoutPrompt(row),
      reward: result.reward,
      terminal_reason: result.info.terminal_reason ?? null,
      terminated: result.terminated,
      truncated: result.truncated,
      end: result.end,
      step_count: result.stepCount,
      metrics: result.info.metrics ?? null,
      outcome,
      ...(result.steps ? { steps: result.steps } : {}),
    }
  }
}
