/**
 * @module envs/releaseops/arena: the public view. It keeps v1's keys and order, except that
 * `release_checks` shows verified facts only ("unverified" otherwise), each proposal carries the
 * worker's `claims` where v1 had `possible_rule_violations`, `release.candidate` names the build under
 * review, and `worker_stats` drops the archetype label (behaviour, not labels, tells workers apart) and lists the
 * workers who have proposed something so far.
 */
import { ruleIds } from '../shared/safety-rules.js'
import type { ArenaEpisode, ProposalStatus } from './episode.js'
import type { ReleaseChecks } from './facts.js'
import type { Proposal, Scenario } from './scenario.js'

export type ProposalView = {
  id: string
  worker: string
  claim: string
  request: string
  refs: string[]
  risk: string[]
  confidence: string
  status: ProposalStatus
  claims: Record<string, 'pass' | 'fail'>
}

export type WorkerStatView = { worker: string; recent: { correct: number; incorrect: number } }

export type ArenaObservationView = {
  phase: string
  phase_index: number
  hours_to_deadline: number
  review_budget_remaining: number
  evidence_actions_remaining: number
  release: { service: string; stage: string; candidate: string }
  release_checks: ReleaseChecks
  rules: string[]
  proposals: ProposalView[]
  worker_stats: WorkerStatView[]
}

// Shared frozen parts are typed mutable so views stay plain JSON objects; nothing writes to them.
const frozenRules = Object.freeze([...ruleIds]) as unknown as string[]

/**
 * Builds views for one episode. Proposal entries are frozen and cached per status, worker stats are
 * built once: a view costs a few small objects, not a deep copy (policies read views every step).
 */
export class ViewBuilder {
  private readonly cache = new Map<string, ProposalView>()
  /** Per phase, built on first use: the workers who have made a proposal so far, in `worker_stats` order. */
  private readonly workerStats: (WorkerStatView[] | undefined)[] = []

  constructor(private readonly scenario: Scenario) {}

  private statsFor(phase: number): WorkerStatView[] {
    let stats = this.workerStats[phase]
    if (!stats) {
      const present = new Set<string>()
      for (const proposals of this.scenario.phases.slice(0, phase)) for (const proposal of proposals) present.add(proposal.worker)
      stats = Object.freeze(
        this.scenario.workers
          .filter((worker) => present.has(worker.id))
          .map((worker) =>
            Object.freeze({
              worker: worker.id,
              recent: Object.freeze({ correct: worker.recent.correct, incorrect: worker.recent.incorrect }),
            }),
          ),
      ) as WorkerStatView[]
      this.workerStats[phase] = stats
    }
    return stats
  }

  private proposal(proposal: Proposal, status: ProposalStatus): ProposalView {
    const key = `${proposal.id}:${status}`
    let view = this.cache.get(key)
    if (!view) {
      view = Object.freeze({
        id: proposal.id,
        worker: proposal.worker,
        claim: proposal.claim,
        request: proposal.request,
        refs: Object.freeze(proposal.refs.slice()) as string[],
        risk: Object.freeze(proposal.risk.slice()) as string[],
        confidence: proposal.confidence,
        status,
        claims: Object.freeze({ ...proposal.claims }),
      })
      this.cache.set(key, view)
    }
    return view
  }

  view(episode: ArenaEpisode): ArenaObservationView {
    const proposals: ProposalView[] = []
    for (const proposal of episode.activeProposals) proposals.push(this.proposal(proposal, episode.statusOf(proposal.id)))
    return {
      phase: episode.phase,
      phase_index: episode.phaseIndex,
      hours_to_deadline: episode.hours,
      review_budget_remaining: episode.budget,
      evidence_actions_remaining: episode.evidence,
      release: { service: 'checkout', stage: 'candidate', candidate: `rc${episode.phaseIndex}` },
      release_checks: { ...episode.checks },
      rules: frozenRules,
      proposals,
      worker_stats: this.statsFor(episode.phaseIndex),
    }
  }
}
