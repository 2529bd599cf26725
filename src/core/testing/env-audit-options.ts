/**
 * @module core/testing: the exploit audit's options from an env's registered audit, so the CLI and the
 * tests play the same thing: the ladder by registered policy names, the env's exploits and search grid,
 * its slices of the audited rows, and its memoriser fitted on a prefix of the training split.
 */
import type { Env, Observation } from '../env/env-api.js'
import type { DatasetRow } from '../env/env-dataset.js'
import { InvalidInputError } from '../errors/invalid-input-error.js'
import type { Policy } from '../policy/policy.js'
import type { EnvRegistration } from '../registry/env-registry.js'
import type { ExploitAuditOptions, LadderEntry } from './exploit-audit.js'

export interface EnvAuditRun<O extends Observation = Observation> {
  envId: string
  registration: EnvRegistration<O>
  createEnv(): Env<O>
  policy(name: string): Policy<O>
  /** The audited rows (by default the audit's split). */
  rows?: readonly DatasetRow[]
  screen: number
  finalists: number
  /** Overrides the memoriser's number of training rows. */
  fitRows?: number
}

export function envAuditOptions<O extends Observation>(run: EnvAuditRun<O>): ExploitAuditOptions<O> {
  const { registration } = run
  const audit = registration.audit
  const dataset = registration.dataset
  if (!audit || !dataset)
    throw new InvalidInputError({
      code: 'env_not_auditable',
      message: `${run.envId} ships no exploit audit or no dataset.`,
      issues: [],
    })
  const rows = run.rows ?? dataset.rows(audit.split)
  const ladder: LadderEntry<O>[] = audit.ladder.map((name) => ({
    name,
    role: name === audit.evidenceBaseline ? 'evidence_baseline' : name === audit.ceiling ? 'ceiling' : 'baseline',
    policy: () => run.policy(name),
  }))
  const slices = (audit.slices ?? []).map((slice) => ({
    name: slice.name,
    measures: slice.measures,
    heldOut: slice.heldOut,
    catchesMemoriser: slice.catchesMemoriser,
    indices: rows.flatMap((row, index) => (slice.includes(row) ? [index] : [])),
  }))
  const memoriser = audit.memoriser
  return {
    envId: run.envId,
    createEnv: run.createEnv,
    resets: rows.map((row) => dataset.toResetParams(row)),
    ladder,
    exploits: audit.exploits(),
    search: { candidates: audit.searchCandidates(), screenResets: run.screen, finalists: run.finalists },
    maxExploitReward: audit.maxExploitReward,
    margin: audit.margin,
    slices,
    ...(audit.safety && registration.summarizeEpisode
      ? {
          outcome: registration.summarizeEpisode,
          safety: audit.safety,
          perturbed: audit.perturbed?.((name) => run.policy(name)) ?? [],
        }
      : {}),
    ...(memoriser
      ? {
          memoriser: {
            plans: memoriser.plans(),
            fit: dataset
              .rows(memoriser.fitSplit)
              .slice(0, run.fitRows ?? memoriser.fitRows)
              .map((row) => ({ keys: memoriser.keys(row), reset: dataset.toResetParams(row) })),
            keys: rows.map((row) => memoriser.keys(row)),
            minDrop: memoriser.minDrop,
          },
        }
      : {}),
  }
}
