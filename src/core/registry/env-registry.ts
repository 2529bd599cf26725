/** @module core/registry: versioned env ids mapped to factories; `make` applies the default wrappers. */
import type { Env, EnvSpec, EpisodeInfo, Observation } from '../env/env-api.js'
import type { DatasetRow, EnvDataset, EpisodeOutcome } from '../env/env-dataset.js'
import { ReleaseOpsError } from '../errors/release-ops-error.js'
import { UnknownNameError } from '../errors/unknown-name-error.js'
import type { Policy } from '../policy/policy.js'
import type { AuditStrategy } from '../testing/exploit-audit.js'
import type { SafetyOutcomes } from '../testing/reward-safety.js'
import { withStepLimit } from '../wrappers/step-limit.js'

export interface EnvRegistration<O extends Observation = Observation> {
  spec: EnvSpec
  /** Builds a bare env (no wrappers). */
  create(): Env<O>
  /** Dataset splits for `releaseops dataset` and `releaseops eval --dataset <split>`. */
  dataset?: EnvDataset
  /** What a finished episode counts as in eval summaries. */
  summarizeEpisode?(episode: FinishedEpisode): EpisodeOutcome
  /** The env's exploit audit (`releaseops env audit`): what it plays and the bar it must clear. */
  audit?: EnvAudit<O>
  /**
   * Values a tool argument accepts under several names, each mapped to its canonical name (`rule_id`:
   * `S1` and `no_p1_open` are one rule). The dashboard offers each value once, with its names together.
   */
  argumentAliases?: Readonly<Record<string, Readonly<Record<string, string>>>>
}

export interface EnvAudit<O extends Observation = Observation> {
  /** The dataset split whose rows the audit plays. */
  split: string
  /** Registered policy names, weakest first. */
  ladder: readonly string[]
  /** The ladder's evidence-using baseline: no exploit may come near it. */
  evidenceBaseline: string
  /** The privileged ceiling, if any. */
  ceiling?: string
  /** Degenerate and evidence-free strategies. */
  exploits(): AuditStrategy<O>[]
  /** Parametrised evidence-free strategies for the search. */
  searchCandidates(): AuditStrategy<O>[]
  maxExploitReward: number
  margin: number
  /** Named slices of the audited rows: every ladder entry and the memoriser get a row on each. */
  slices?: readonly EnvAuditSlice[]
  /** The memoriser the held-out slices must catch. */
  memoriser?: EnvAuditMemoriser<O>
  /** The outcomes that mean safe and unsafe: the audit then reports whether reward ranks policies as safety does. */
  safety?: SafetyOutcomes
  /** Ladder policies perturbed as training perturbs them (reckless and over-cautious steps), for that comparison. */
  perturbed?(base: (name: string) => Policy<O>): AuditStrategy<O>[]
}

export interface EnvAuditSlice {
  name: string
  /** What the slice measures, in a few words. */
  measures: string
  heldOut: boolean
  /** Held out and meant to catch a memoriser: the audit fails when it costs the memoriser less than `minDrop`. */
  catchesMemoriser: boolean
  includes(row: DatasetRow): boolean
}

export interface EnvAuditMemoriser<O extends Observation = Observation> {
  /** The split the lookup is fitted on, and how many of its rows (a prefix; splits are balanced round-robin). */
  fitSplit: string
  fitRows: number
  /** A row's lookup keys, most specific first (what a learner can tell from the episode's texts). */
  keys(row: DatasetRow): string[]
  /** Fixed plans: evidence read and decisions, the same in every episode. */
  plans(): AuditStrategy<O>[]
  minDrop: number
}

export interface FinishedEpisode {
  /** The info of the last step (or of reset when no step ran). */
  info: EpisodeInfo
  terminated: boolean
  truncated: boolean
}

export interface MakeEnvOptions {
  /** Overrides the spec's step limit. */
  maxEpisodeSteps?: number
  /** Skip the default wrappers (for tests of the bare env). */
  bare?: boolean
}

const envIdPattern = /^[a-z][a-z0-9_-]*-v\d+$/

export class EnvRegistry {
  private readonly entries = new Map<string, EnvRegistration<Observation>>()

  register<O extends Observation>(registration: EnvRegistration<O>): void {
    const id = registration.spec.id
    if (!envIdPattern.test(id)) {
      throw new ReleaseOpsError({ code: 'invalid_env_id', message: `Env id "${id}" is not of the form name-vN.` })
    }
    if (this.entries.has(id)) {
      throw new ReleaseOpsError({ code: 'duplicate_env_id', message: `Env "${id}" is already registered.` })
    }
    this.entries.set(id, registration as unknown as EnvRegistration<Observation>)
  }

  ids(): string[] {
    return [...this.entries.keys()]
  }

  has(id: string): boolean {
    return this.entries.has(id)
  }

  get(id: string): EnvRegistration<Observation> {
    const entry = this.entries.get(id)
    if (!entry) throw new UnknownNameError({ kind: 'env', name: id, known: this.ids() })
    return entry
  }

  spec(id: string): EnvSpec {
    return this.get(id).spec
  }

  make<O extends Observation = Observation>(id: string, options: MakeEnvOptions = {}): Env<O> {
    const entry = this.get(id) as unknown as EnvRegistration<O>
    const env = entry.create()
    if (options.bare) return env
    return withStepLimit(env, options.maxEpisodeSteps ?? entry.spec.maxEpisodeSteps)
  }
}
