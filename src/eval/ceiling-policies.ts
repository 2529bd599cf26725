/**
 * @module eval: the ceiling a report shows beside every policy or model: the env's privileged policies
 * (an oracle reading hidden state), run over the same rows.
 */
import type { DatasetRow } from '../core/env/env-dataset.js'
import { envRegistry, policyRegistry } from '../envs/index.js'
import { buildSummary, type EvalSummary } from './build-summary.js'
import { runEval } from './run-eval.js'

/** Names of the env's privileged policies (usually `oracle`), in registration order. */
export function ceilingPolicies(envId: string): string[] {
  return policyRegistry.names(envId).filter((name) => policyRegistry.get(envId, name).privileged)
}

/** Marks summary blocks as the ceiling, so tables label them and compute gaps against them. */
export function markCeiling(summary: EvalSummary, names: readonly string[]): void {
  for (const name of names) {
    const block = summary[name]
    if (!block) continue
    const run = (block as { run?: Record<string, unknown> }).run ?? {}
    Object.assign(block, { run: { ...run, ceiling: true } })
  }
}

/** Runs the ceiling policies over `rows` (in this thread; they are cheap) and returns their marked summary. */
export async function ceilingSummary(options: {
  envId: string
  rows: readonly DatasetRow[]
  maxEpisodeSteps?: number
}): Promise<EvalSummary> {
  const names = ceilingPolicies(options.envId)
  if (names.length === 0) return {}
  const records = await runEval({
    envId: options.envId,
    rows: options.rows,
    policies: names,
    ...(options.maxEpisodeSteps === undefined ? {} : { maxEpisodeSteps: options.maxEpisodeSteps }),
  })
  const summary = buildSummary(records, envRegistry.get(options.envId).dataset?.groupBy ?? [])
  markCeiling(summary, names)
  return summary
}
