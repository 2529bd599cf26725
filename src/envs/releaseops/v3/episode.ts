/**
 * @module envs/releaseops/v3: v2's episode with the rules that make evidence pay. A block counts
 * only when `release_checks` shows a fact of the cited rule broken for the current candidate and the
 * proposal vouches for that fact; any other block is rejected ("no evidence cited"): the proposal
 * stays open, the release loses 6 hours and the supervisor −0.15. A revision repairs exactly the
 * reported facts, never an unreported one, and may break any fine hazard nobody verified: no
 * revision is safer than its candidate unless evidence was acted on.
 * Every block outcome reads only verified checks, never a hidden fact.
 */

import { ArenaEpisode, type ArenaEpisodeMetrics, type ToolOutcome } from '../arena/episode.js'
import { badValue, type FactKey, factKeys, isFactBad, ruleOfFact } from '../arena/facts.js'
import type { Proposal } from '../arena/scenario.js'
import { rewards } from '../shared/rewards.js'
import { normalizeRuleId, shortRuleId } from '../shared/safety-rules.js'
import { rejectedBlockHours } from './difficulty.js'

export interface EpisodeMetricsV3 extends ArenaEpisodeMetrics {
  /** Rejected blocks that cited a rule with nothing verified broken for the candidate. */
  unevidenced_blocks: number
}

export class EpisodeV3 extends ArenaEpisode {
  override readonly metrics: EpisodeMetricsV3 = {
    invalid_actions: 0,
    false_blocks: 0,
    true_blocks: 0,
    wrong_rule_blocks: 0,
    phase_advances: 0,
    unevidenced_blocks: 0,
  }

  /** Facts of `proposal` a block citing `rule` would report now: covered, of that rule, verified broken, not yet reported. */
  evidencedFacts(proposal: Proposal, rule: string): FactKey[] {
    const cited = normalizeRuleId(rule)
    return proposal.covers.filter((fact) => ruleOfFact[fact] === cited && this.checks[fact] === badValue[fact])
  }

  override block(proposalId: string, ruleId: string): ToolOutcome {
    const proposal = this.resolvable(proposalId)
    if ('error' in proposal) return proposal
    const evidenced = this.evidencedFacts(proposal, ruleId)
    if (evidenced.length === 0) return this.reject(proposalId, ruleId)
    this.status.set(proposalId, 'blocked')
    this.blocksThisPhase += 1
    this.metrics.true_blocks += 1
    for (const fact of evidenced) this.reported.add(fact)
    const outcome = this.resolution('block', proposalId, shortRuleId(ruleId))
    if ('result' in outcome) outcome.result.accepted = true
    return outcome
  }

  /** A block without evidence for this proposal: the worker re-proposes, the review loses hours. */
  private reject(proposalId: string, ruleId: string): ToolOutcome {
    const cited = normalizeRuleId(ruleId)
    const anyVerified = factKeys.some((fact) => ruleOfFact[fact] === cited && this.checks[fact] === badValue[fact])
    this.metrics.false_blocks += 1
    if (!anyVerified) this.metrics.unevidenced_blocks += 1
    this.addReward(rewards.false_block)
    this.hours -= rejectedBlockHours
    if (this.hours <= 0) {
      this.done = true
      this.terminalReason = 'missed_deadline'
      this.addReward(rewards.missed_deadline)
    }
    const reason = anyVerified ? 'evidence_does_not_concern_proposal' : 'no_evidence_cited'
    const result = {
      action: 'block',
      proposal: proposalId,
      rule_id: shortRuleId(ruleId),
      accepted: false,
      reason,
      worker_reply: anyVerified
        ? 'The verified check you cite is not something this proposal vouches for; re-proposing unchanged.'
        : 'No evidence cited for this rule on the current candidate; re-proposing unchanged.',
      hours_lost: rejectedBlockHours,
      terminal: this.done,
      ...(this.done ? { episode_end_reason: this.terminalReason } : {}),
    }
    return { result, changed: true }
  }

  /**
   * Reported facts are repaired; unreported broken facts stay broken. The revision regresses, with
   * the author's probability, each fine hazard nobody verified for this candidate (a rushed revision
   * breaks what was not checked; a blind one checked nothing). Each decision reads one fact, its check
   * and its roll only.
   */
  protected override revise(): void {
    const scenario = this.scenario
    const breakRolls = scenario.hidden.breakRolls[this.metrics.phase_advances - 1]
    if (!breakRolls) return
    for (const fact of factKeys) {
      if (isFactBad(this.facts, fact)) {
        if (this.reported.has(fact)) this.facts[fact] = !badValue[fact]
      } else if (
        scenario.hazards.includes(fact) &&
        this.checks[fact] === 'unverified' &&
        breakRolls[fact] < scenario.breakProbability
      ) {
        this.facts[fact] = badValue[fact]
      }
    }
  }
}
