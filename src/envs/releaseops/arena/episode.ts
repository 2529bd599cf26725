/**
 * @module envs/releaseops/arena: one episode's mutable state and the tool semantics that change it:
 * spending, approving, blocking (true when approving would ship or keep a broken rule), the terminal
 * check and the phase advance. Evidence tools live in `evidence-actions.ts`, revisions in
 * `revise-candidate.ts`. The engine builds no views: the env decorates results, the oracle reads state.
 */
import type { JsonObject } from '../../../core/json/json-value.js'
import { type HoldReason, phases, type TerminalReason } from '../shared/constants.js'
import { rewards } from '../shared/rewards.js'
import { normalizeRuleId, type ReleaseFacts, type RuleId, shortRuleId, violatedRules } from '../shared/safety-rules.js'
import { type FactKey, isFactBad, type ReleaseChecks, ruleOfFact, unverifiedChecks } from './facts.js'
import { reviseCandidate } from './revise-candidate.js'
import type { Proposal, Scenario } from './scenario.js'

export interface ArenaEpisodeMetrics {
  invalid_actions: number
  false_blocks: number
  true_blocks: number
  /** True blocks that cited a rule the proposal does not break (so nothing was reported). */
  wrong_rule_blocks: number
  phase_advances: number
}

export type StepError = {
  code: string
  message: string
}

/** `changed` is false for a valid call that changed nothing (a free re-read), which the no-progress terminator counts. */
export type ToolOutcome = { result: JsonObject; changed: boolean; phaseAdvanced?: boolean } | { error: StepError }

export type ProposalStatus = 'unresolved' | 'approved' | 'blocked'

export function failure(code: string, message: string): { error: StepError } {
  return { error: { code, message } }
}

export class ArenaEpisode {
  /** The running episode reward. */
  reward = 0
  /** What the current step added. */
  stepReward = 0
  done = false
  terminalReason: TerminalReason | null = null
  violatedAtShip: RuleId[] = []
  phaseIndex = 1
  hours: number
  budget: number
  evidence: number
  readonly initialBudget: number
  /** The current candidate's facts (hidden). */
  readonly facts: ReleaseFacts
  /** What `release_checks` shows for the current candidate. */
  checks: ReleaseChecks = unverifiedChecks()
  readonly status = new Map<string, ProposalStatus>()
  /** Results of artifacts already inspected: re-reading them is free. */
  readonly inspected = new Map<string, JsonObject>()
  /** Answers already given this phase, by `worker:question`: asking again is free. */
  readonly answers = new Map<string, JsonObject>()
  /** Rules the first candidate breaks; the first verified discovery of each earns the bonus. */
  readonly initialViolations: ReadonlySet<RuleId>
  readonly discovered = new Set<RuleId>()
  /** Broken facts reported this phase (a block citing their rule on a proposal that covers them): the revision repairs them. */
  readonly reported = new Set<FactKey>()
  /** Facts approved as fine this phase (approving a proposal that covers them): no blind repair. */
  readonly accepted = new Set<FactKey>()
  /** Blocks this phase, true or false: a revision after any block is focused and breaks nothing. */
  blocksThisPhase = 0
  readonly metrics: ArenaEpisodeMetrics = {
    invalid_actions: 0,
    false_blocks: 0,
    true_blocks: 0,
    wrong_rule_blocks: 0,
    phase_advances: 0,
  }

  constructor(readonly scenario: Scenario) {
    this.hours = scenario.hours
    this.budget = scenario.budget
    this.initialBudget = scenario.budget
    this.evidence = scenario.evidencePerPhase
    this.facts = { ...scenario.hidden.facts }
    this.initialViolations = new Set(violatedRules(this.facts))
  }

  /** Proposals of the current phase, in view order. */
  get activeProposals(): readonly Proposal[] {
    return this.scenario.phases[this.phaseIndex - 1] as readonly Proposal[]
  }

  get phase(): string {
    return phases[this.phaseIndex - 1] as string
  }

  statusOf(proposalId: string): ProposalStatus {
    return this.status.get(proposalId) ?? 'unresolved'
  }

  addReward(amount: number): void {
    this.reward += amount
    this.stepReward += amount
  }

  invalidAction(): void {
    this.metrics.invalid_actions += 1
    this.addReward(rewards.invalid_action)
  }

  /** One review-budget unit and one evidence action, or the reason there are none. */
  spend(): { error: StepError } | undefined {
    if (this.evidence <= 0) return failure('no_evidence_actions', 'No evidence actions remaining in this phase.')
    if (this.budget <= 0) return failure('no_review_budget', 'No review budget remaining.')
    this.evidence -= 1
    this.budget -= 1
    this.addReward(rewards.budget_unit_spent)
    return undefined
  }

  /** Rules approving this proposal would ship (a ship) or keep (a proposal vouching for those facts). */
  keptViolations(proposal: Proposal): RuleId[] {
    const rules: RuleId[] = []
    for (const fact of proposal.covers) {
      const rule = ruleOfFact[fact]
      if (isFactBad(this.facts, fact) && !rules.includes(rule)) rules.push(rule)
    }
    return rules
  }

  protected resolvable(proposalId: string): Proposal | { error: StepError } {
    const proposal = this.scenario.proposals.get(proposalId)
    if (!proposal) return failure('unknown_proposal', `Unknown proposal ID: ${proposalId}`)
    if (proposal.phase !== this.phaseIndex) {
      return failure('proposal_inactive', `Proposal ${proposalId} is not active in this phase.`)
    }
    const status = this.statusOf(proposalId)
    if (status !== 'unresolved') return failure('proposal_resolved', `Proposal ${proposalId} is already ${status}.`)
    return proposal
  }

  approve(proposalId: string): ToolOutcome {
    const proposal = this.resolvable(proposalId)
    if ('error' in proposal) return proposal
    this.status.set(proposalId, 'approved')
    if (proposal.request !== 'ship_release_candidate') for (const fact of proposal.covers) this.accepted.add(fact)
    return this.resolution('approve', proposalId)
  }

  block(proposalId: string, ruleId: string): ToolOutcome {
    const proposal = this.resolvable(proposalId)
    if ('error' in proposal) return proposal
    this.status.set(proposalId, 'blocked')
    this.blocksThisPhase += 1
    const kept = this.keptViolations(proposal)
    const cited = normalizeRuleId(ruleId)
    if (kept.length === 0) {
      this.metrics.false_blocks += 1
      this.addReward(rewards.false_block)
    } else {
      this.metrics.true_blocks += 1
      if (cited !== '' && kept.includes(cited)) {
        for (const fact of proposal.covers) if (ruleOfFact[fact] === cited && isFactBad(this.facts, fact)) this.reported.add(fact)
      } else {
        this.metrics.wrong_rule_blocks += 1
      }
    }
    return this.resolution('block', proposalId, shortRuleId(ruleId))
  }

  /** The reason code is validated but changes nothing: what gets repaired depends on what was reported. */
  hold(_reason: HoldReason): ToolOutcome {
    this.advancePhase()
    if (this.done) return { result: { action: 'hold_release', terminal: true, reason: 'missed_deadline' }, changed: true }
    return { result: { action: 'hold_release', terminal: false }, changed: true, phaseAdvanced: true }
  }

  protected resolution(action: 'approve' | 'block', proposalId: string, rule?: string): ToolOutcome {
    const phaseBefore = this.phaseIndex
    this.checkTerminal()
    const result: JsonObject = { action, proposal: proposalId }
    if (rule !== undefined) result.rule_id = rule
    result.terminal = this.done
    if (this.done) result.episode_end_reason = this.terminalReason
    return { result, changed: true, ...(this.phaseIndex !== phaseBefore ? { phaseAdvanced: true } : {}) }
  }

  /** After every approve and block: an approved ship ends the episode; a fully resolved phase advances. */
  protected checkTerminal(): void {
    const active = this.activeProposals
    for (const proposal of active) {
      if (proposal.request === 'ship_release_candidate' && this.statusOf(proposal.id) === 'approved') {
        const violated = violatedRules(this.facts)
        this.done = true
        if (violated.length === 0) {
          this.terminalReason = 'safe_ship'
          this.addReward(rewards.safe_ship)
        } else {
          this.terminalReason = 'unsafe_ship'
          this.violatedAtShip = violated
          this.addReward(rewards.unsafe_ship)
        }
        return
      }
    }
    if (active.some((proposal) => this.statusOf(proposal.id) === 'unresolved')) return
    this.advancePhase()
  }

  protected advancePhase(): void {
    this.hours -= 12
    if (this.hours <= 0 || this.phaseIndex >= this.scenario.phases.length) {
      this.done = true
      this.terminalReason = 'missed_deadline'
      this.addReward(rewards.missed_deadline)
      return
    }
    this.metrics.phase_advances += 1
    this.revise()
    this.phaseIndex += 1
    this.evidence = this.scenario.evidencePerPhase
    this.checks = unverifiedChecks()
    this.reported.clear()
    this.accepted.clear()
    this.blocksThisPhase = 0
    this.answers.clear()
  }

  /** The next candidate's facts (v3 overrides: only reported facts are repaired). */
  protected revise(): void {
    reviseCandidate(this)
  }
}
