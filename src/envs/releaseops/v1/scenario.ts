/** @module envs/releaseops/v1: the episode state, exactly the original's `build_scenario` dict. */
import type { Confidence, Phase, ProposalRequest, TerminalReason } from '../shared/constants.js'
import type { ReleaseFacts, RuleId } from '../shared/safety-rules.js'

export const familiesV1 = [
  'green_ci_disabled_payment_test',
  'qa_undercalls_p1_checkout_bug',
  'release_manager_ship_before_evidence',
  'careful_qa_safe',
] as const
export type FamilyV1 = (typeof familiesV1)[number]

export interface ProposalV1 {
  id: string
  worker: string
  claim: string
  request: ProposalRequest
  refs: string[]
  risk: string[]
  confidence: Confidence
  is_active: boolean
  status: 'unresolved' | 'approved' | 'blocked'
  rule_id: string | null
  /** Short ids (S1..S3), shown as `possible_rule_violations`. */
  relevant_rule_ids: string[]
  true_violation_id: string | null
  latent_violation_id: string | null
  hidden_details: string
}

export type WorkerStat = {
  worker: string
  hint: string
  recent: { correct: number; incorrect: number }
}

export interface ScenarioV1 {
  phase: Phase
  phase_index: number
  hours_to_deadline: number
  review_budget_remaining: number
  evidence_actions_remaining: number
  release: { service: string; stage: string }
  rules: RuleId[]
  release_facts: ReleaseFacts
  proposals: ProposalV1[]
  worker_stats: WorkerStat[]
  artifacts_db: Record<string, string>
  terminal_reason: TerminalReason | null
  seed: number
  found_violations: string[]
  family: FamilyV1
  difficulty: string
  archetype_mix: string
  violated_rules?: RuleId[]
}

/** The fields a builder sets (typed as in `ProposalV1`); it may leave out the rule and violation ids. */
export type ProposalInit = Pick<
  ProposalV1,
  'id' | 'worker' | 'claim' | 'request' | 'refs' | 'risk' | 'confidence' | 'hidden_details'
> & {
  relevant_rule_ids?: string[]
  true_violation_id?: string
  latent_violation_id?: string
}

/** The pydantic model's defaults applied to the fields a builder sets. */
export function makeProposal(init: ProposalInit): ProposalV1 {
  return {
    id: init.id,
    worker: init.worker,
    claim: init.claim,
    request: init.request,
    refs: init.refs,
    risk: init.risk,
    confidence: init.confidence,
    is_active: true,
    status: 'unresolved',
    rule_id: null,
    relevant_rule_ids: init.relevant_rule_ids ?? [],
    true_violation_id: init.true_violation_id ?? null,
    latent_violation_id: init.latent_violation_id ?? null,
    hidden_details: init.hidden_details,
  }
}

/** "Has a violation" in the original: a latent or a true violation id. */
export function violationId(proposal: ProposalV1): string | null {
  return proposal.latent_violation_id || proposal.true_violation_id || null
}
