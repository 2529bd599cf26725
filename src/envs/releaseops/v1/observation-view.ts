/** @module envs/releaseops/v1: `render_observation` as an object (key order is the original's). */
import type { ReleaseFacts, RuleId } from '../shared/safety-rules.js'
import type { ProposalV1, ScenarioV1, WorkerStat } from './scenario.js'

export type ProposalViewV1 = {
  id: string
  worker: string
  claim: string
  request: string
  refs: string[]
  risk: string[]
  confidence: string
  status: string
  possible_rule_violations: string[]
}

export type ObservationViewV1 = {
  phase: string
  phase_index: number
  hours_to_deadline: number
  review_budget_remaining: number
  evidence_actions_remaining: number
  release: { service: string; stage: string }
  release_checks: ReleaseFacts
  rules: RuleId[]
  proposals: ProposalViewV1[]
  worker_stats: WorkerStat[]
}

function proposalView(proposal: ProposalV1): ProposalViewV1 {
  return {
    id: proposal.id,
    worker: proposal.worker,
    claim: proposal.claim,
    request: proposal.request,
    refs: proposal.refs.slice(),
    risk: proposal.risk.slice(),
    confidence: proposal.confidence,
    status: proposal.status,
    possible_rule_violations: proposal.relevant_rule_ids.slice(),
  }
}

/**
 * A fresh copy of the public view. `workerStats` may be passed in: it never changes during a v1
 * episode, so the env builds that part once and shares it (frozen) between observations.
 */
export function observationView(scenario: ScenarioV1, workerStats?: WorkerStat[]): ObservationViewV1 {
  const proposals: ProposalViewV1[] = []
  for (const proposal of scenario.proposals) if (proposal.is_active) proposals.push(proposalView(proposal))
  return {
    phase: scenario.phase,
    phase_index: scenario.phase_index,
    hours_to_deadline: scenario.hours_to_deadline,
    review_budget_remaining: scenario.review_budget_remaining,
    evidence_actions_remaining: scenario.evidence_actions_remaining,
    release: { service: scenario.release.service, stage: scenario.release.stage },
    release_checks: { ...scenario.release_facts },
    rules: scenario.rules.slice(),
    proposals,
    worker_stats: workerStats ?? copyWorkerStats(scenario.worker_stats),
  }
}

export function copyWorkerStats(stats: readonly WorkerStat[]): WorkerStat[] {
  return stats.map((stat) => ({
    worker: stat.worker,
    hint: stat.hint,
    recent: { correct: stat.recent.correct, incorrect: stat.recent.incorrect },
  }))
}
