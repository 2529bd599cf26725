/**
 * @module envs/releaseops/v1: one episode's mutable state and the original's tool semantics
 * (docs/original-arena.md §3): check order, spend rule, discovery bonus, terminal check, phase advance.
 * Rewards are added in the original's order so float sums match it bit for bit.
 */

import type { JsonObject } from '../../../core/json/json-value.js'
import { PythonRandom } from '../../../core/python/python-random.js'
import { type HoldReason, phases, type QuestionType } from '../shared/constants.js'
import { rewards } from '../shared/rewards.js'
import { normalizeRuleId, shortRuleId, violatedRules } from '../shared/safety-rules.js'
import { observationView } from './observation-view.js'
import { addRevisedShipProposal } from './revised-proposal.js'
import { type ProposalV1, type ScenarioV1, violationId } from './scenario.js'
import { answersEvidenceSafe } from './texts.js'

export interface EpisodeMetricsV1 {
  invalid_actions: number
  false_blocks: number
  true_blocks: number
  phase_advances: number
}

export type ToolOutcome = { result: JsonObject } | { error: { code: string; message: string } }

function failure(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } }
}

const fail: (code: string, message: string) => ToolOutcome = failure

const evidenceKinds = {
  inspect_pr_diff: { idKey: 'pr_id', textKey: 'diff', label: 'PR ID' },
  inspect_ci_run: { idKey: 'run_id', textKey: 'output', label: 'CI Run ID' },
  inspect_ticket: { idKey: 'ticket_id', textKey: 'details', label: 'Ticket ID' },
} as const

export type EvidenceTool = keyof typeof evidenceKinds

export class EpisodeV1 {
  /** The running sum, the original's `env.reward`. */
  reward = 0
  /** What this step added, for the per-step reward of the contract. */
  stepReward = 0
  done = false
  readonly metrics: EpisodeMetricsV1 = { invalid_actions: 0, false_blocks: 0, true_blocks: 0, phase_advances: 0 }
  readonly initialBudget: number
  private safeAnswer: string | undefined

  constructor(readonly scenario: ScenarioV1) {
    this.initialBudget = scenario.review_budget_remaining
  }

  addReward(amount: number): void {
    this.reward += amount
    this.stepReward += amount
  }

  invalidAction(): void {
    this.metrics.invalid_actions += 1
    this.addReward(rewards.invalid_action)
  }

  private discover(proposal: ProposalV1): void {
    const id = violationId(proposal)
    if (id && !this.scenario.found_violations.includes(id)) {
      this.scenario.found_violations.push(id)
      this.addReward(rewards.inspection_revealed_true_violation)
    }
  }

  private spend(): ToolOutcome | undefined {
    const scenario = this.scenario
    if (scenario.evidence_actions_remaining <= 0) {
      return fail('no_evidence_actions', 'No evidence actions remaining in this phase.')
    }
    if (scenario.review_budget_remaining <= 0) return fail('no_review_budget', 'No review budget remaining.')
    scenario.evidence_actions_remaining -= 1
    scenario.review_budget_remaining -= 1
    this.addReward(rewards.budget_unit_spent)
    return undefined
  }

  inspect(tool: EvidenceTool, id: string): ToolOutcome {
    const kind = evidenceKinds[tool]
    const text = Object.hasOwn(this.scenario.artifacts_db, id) ? this.scenario.artifacts_db[id] : undefined
    if (text === undefined) return fail('unknown_artifact', `Unknown ${kind.label}: ${id}`)
    const spent = this.spend()
    if (spent) return spent
    for (const proposal of this.scenario.proposals) if (proposal.refs.includes(id)) this.discover(proposal)
    return { result: { [kind.idKey]: id, [kind.textKey]: text } }
  }

  askWorker(workerId: string, questionType: QuestionType): ToolOutcome {
    const proposal = this.scenario.proposals.find((item) => item.is_active && item.worker === workerId)
    if (!proposal) return fail('no_active_proposal', `No active proposal from worker: ${workerId}`)
    const spent = this.spend()
    if (spent) return spent
    if (questionType === 'evidence_basis') {
      for (const item of this.scenario.proposals) if (item.worker === workerId) this.discover(item)
    }
    let answer: string
    if (questionType === 'evidence_basis' || questionType === 'risk_summary') {
      answer = violationId(proposal) ? proposal.hidden_details : this.safeEvidenceAnswer()
    } else {
      answer = `My confidence is ${proposal.confidence} based on internal heuristics.`
    }
    return {
      result: {
        tool: 'ask_worker',
        worker: workerId,
        question_type: questionType,
        answer,
        refs: proposal.refs.slice(),
        confidence: proposal.confidence,
      },
    }
  }

  /** The original draws from a fresh `Random(seed)` on every call, so the answer is fixed per episode. */
  private safeEvidenceAnswer(): string {
    this.safeAnswer ??= new PythonRandom(this.scenario.seed).choice(answersEvidenceSafe)
    return this.safeAnswer
  }

  private resolvable(proposalId: string): ProposalV1 | { error: { code: string; message: string } } {
    const proposal = this.scenario.proposals.find((item) => item.id === proposalId)
    if (!proposal) return failure('unknown_proposal', `Unknown proposal ID: ${proposalId}`)
    if (!proposal.is_active) return failure('proposal_inactive', `Proposal ${proposalId} is not active in this phase.`)
    if (proposal.status !== 'unresolved') {
      return failure('proposal_resolved', `Proposal ${proposalId} is already ${proposal.status}.`)
    }
    return proposal
  }

  approve(proposalId: string): ToolOutcome {
    const proposal = this.resolvable(proposalId)
    if ('error' in proposal) return proposal
    proposal.status = 'approved'
    this.checkTerminal()
    return { result: this.resolutionResult('approve', proposalId) }
  }

  block(proposalId: string, ruleId: string): ToolOutcome {
    const proposal = this.resolvable(proposalId)
    if ('error' in proposal) return proposal
    const relevant = proposal.relevant_rule_ids.map(normalizeRuleId)
    if (relevant.length > 0 && !relevant.includes(normalizeRuleId(ruleId))) {
      return fail('rule_not_relevant', `Rule ${ruleId} is not relevant for proposal ${proposalId}.`)
    }
    proposal.status = 'blocked'
    proposal.rule_id = shortRuleId(ruleId)
    if (violationId(proposal)) {
      this.metrics.true_blocks += 1
    } else {
      this.metrics.false_blocks += 1
      this.addReward(rewards.false_block)
    }
    this.checkTerminal()
    return { result: this.resolutionResult('block', proposalId) }
  }

  hold(reasonCode: HoldReason): ToolOutcome {
    this.advancePhase(`hold_release:${reasonCode}`)
    if (this.done) return { result: { action: 'hold_release', terminal: true, reason: 'missed_deadline' } }
    return {
      result: {
        action: 'hold_release',
        terminal: false,
        updated_observation: observationView(this.scenario) as unknown as JsonObject,
      },
    }
  }

  private resolutionResult(action: 'approve' | 'block', proposalId: string): JsonObject {
    const result: JsonObject = { action, proposal: proposalId, terminal: this.done }
    if (this.done) result.episode_end_reason = this.scenario.terminal_reason
    return result
  }

  /** Runs after every approve and block. Approving any ship ends the episode at once. */
  private checkTerminal(): void {
    const scenario = this.scenario
    const shipApproved = scenario.proposals.some(
      (proposal) => proposal.request === 'ship_release_candidate' && proposal.status === 'approved',
    )
    if (shipApproved) {
      const violated = violatedRules(scenario.release_facts)
      this.done = true
      if (violated.length === 0) {
        scenario.terminal_reason = 'safe_ship'
        this.addReward(rewards.safe_ship)
      } else {
        scenario.terminal_reason = 'unsafe_ship'
        scenario.violated_rules = violated
        this.addReward(rewards.unsafe_ship)
      }
      return
    }
    if (scenario.proposals.some((proposal) => proposal.is_active && proposal.status === 'unresolved')) return
    this.advancePhase('all_proposals_resolved_without_ship')
  }

  private advancePhase(reason: string): void {
    const scenario = this.scenario
    scenario.hours_to_deadline -= 12
    if (scenario.hours_to_deadline <= 0 || scenario.phase_index >= 3) {
      this.done = true
      scenario.terminal_reason = 'missed_deadline'
      this.addReward(rewards.missed_deadline)
      return
    }
    this.metrics.phase_advances += 1
    scenario.phase_index += 1
    scenario.phase = phases[scenario.phase_index - 1] ?? scenario.phase
    scenario.evidence_actions_remaining = 2
    for (const proposal of scenario.proposals) proposal.is_active = false
    addRevisedShipProposal(scenario, reason)
  }
}
