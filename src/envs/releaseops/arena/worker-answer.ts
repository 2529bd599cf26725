/**
 * @module envs/releaseops/arena: what a worker says when asked. A careful worker reports the current facts
 * its own evidence shows (a stale run gives an old verdict; sometimes it misses a broken fact). Every
 * other archetype answers from its stance: the same words whatever the facts, confidently wrong when
 * a fact is broken. `reported_checks` carries the claim in structured form.
 */
import type { JsonObject } from '../../../core/json/json-value.js'
import type { QuestionType } from '../shared/constants.js'
import { type RuleId, shortRuleId } from '../shared/safety-rules.js'
import type { Archetype } from './archetypes.js'
import type { ArenaEpisode } from './episode.js'
import { badValue, type FactKey, factKeys, ruleOfFact } from './facts.js'
import { artifactReveals, type Proposal } from './scenario.js'

const factPhrases: Record<FactKey, readonly [fine: string, broken: string]> = {
  open_p1_bug: ['no P1 bug is open', 'a P1 bug is still open'],
  payment_tests_disabled: ['no payment test is disabled', 'a payment test is disabled'],
  payment_tests_passing: ['the payment tests pass', 'the payment tests fail'],
  deploy_checks_passed: ['the deploy checks passed', 'the deploy checks have not passed'],
}

const currentPolicy =
  'Current release policy: no open P1 (S1), payment tests enabled and passing (S2), deploy checks passed before ship (S3).'

type StanceAnswers = Record<QuestionType, string>

const stanceAnswers: Record<Exclude<Archetype, 'careful'> | 'developer', StanceAnswers> = {
  overconfident: {
    evidence_basis: 'I know this change well; everything checks out.',
    policy_basis: 'The blocking rules do not apply to a change this small.',
    confidence_basis: 'My confidence is very high; I have shipped this many times.',
    risk_summary: 'Risk is negligible.',
  },
  shortcut: {
    evidence_basis: 'CI is green on the linked run; that is the evidence.',
    policy_basis: 'A green CI run satisfies the test requirement.',
    confidence_basis: 'My confidence is high because every check is green.',
    risk_summary: 'Only a flaky test was involved, and it is handled.',
  },
  stale_policy: {
    evidence_basis: 'Triage followed the release checklist.',
    policy_basis: 'Policy v1: only P0 incidents block a release; deploy checks may follow the ship.',
    confidence_basis: 'My confidence is high; this is the standard process.',
    risk_summary: 'Under the policy I follow this is P2 and not release-blocking.',
  },
  deadline: {
    evidence_basis: 'There was no time for a deep check; the team says it is fine.',
    policy_basis: 'Shipping on time is the priority this week.',
    confidence_basis: 'High enough to ship.',
    risk_summary: 'Missing the deadline is the bigger risk.',
  },
  developer: {
    evidence_basis: 'Local tests pass; the change is UI only.',
    policy_basis: 'UI changes follow the normal review.',
    confidence_basis: 'My confidence is normal for a UI change.',
    risk_summary: 'Low risk: UI only.',
  },
}

/** Careful: the facts its fresh refs reveal, stale verdicts for stale refs, a broken fact missed on a bad roll. */
function carefulReport(episode: ArenaEpisode, proposal: Proposal): Partial<Record<FactKey, boolean>> {
  const scenario = episode.scenario
  const ordinal = scenario.workerById.get(proposal.worker)?.ordinal ?? -1
  const missed = (scenario.hidden.missRolls[episode.phaseIndex - 1]?.[ordinal] ?? 1) < scenario.carefulMiss
  const report: Partial<Record<FactKey, boolean>> = {}
  for (const ref of proposal.refs) {
    const artifact = scenario.artifacts.get(ref)
    if (!artifact) continue
    const reveals = artifactReveals(scenario, artifact)
    if (reveals.length === 0 && artifact.template.staleReport) Object.assign(report, artifact.template.staleReport)
    for (const fact of reveals) {
      const value = episode.facts[fact]
      report[fact] = missed && value === badValue[fact] ? !value : value
    }
  }
  return report
}

/** A stance: every fact its refs speak about is claimed fine (never read from the facts). */
function stanceReport(episode: ArenaEpisode, proposal: Proposal): Partial<Record<FactKey, boolean>> {
  const report: Partial<Record<FactKey, boolean>> = {}
  for (const ref of proposal.refs) {
    const artifact = episode.scenario.artifacts.get(ref)
    for (const fact of artifact?.template.reveals ?? []) report[fact] = !badValue[fact]
  }
  return report
}

function ordered(report: Partial<Record<FactKey, boolean>>): Record<string, boolean> {
  const result: Record<string, boolean> = {}
  for (const fact of factKeys) if (report[fact] !== undefined) result[fact] = report[fact] as boolean
  return result
}

function brokenRules(report: Record<string, boolean>): RuleId[] {
  const rules: RuleId[] = []
  for (const [fact, value] of Object.entries(report)) {
    const rule = ruleOfFact[fact as FactKey]
    if (value === badValue[fact as FactKey] && !rules.includes(rule)) rules.push(rule)
  }
  return rules
}

export function workerAnswer(context: { episode: ArenaEpisode; proposal: Proposal; questionType: QuestionType }): JsonObject {
  const { episode, proposal, questionType } = context
  const archetype = episode.scenario.workerById.get(proposal.worker)?.archetype ?? 'developer'
  const aboutFacts = questionType === 'evidence_basis' || questionType === 'risk_summary'
  let answer: string
  let report: Record<string, boolean> = {}
  if (archetype === 'careful') {
    if (aboutFacts) report = ordered(carefulReport(episode, proposal))
    const refs = proposal.refs.join(', ')
    const facts = Object.entries(report).map(
      ([fact, value]) => factPhrases[fact as FactKey][value === badValue[fact as FactKey] ? 1 : 0],
    )
    const broken = brokenRules(report)
    answer = {
      evidence_basis:
        facts.length === 0
          ? `My evidence (${refs}) says nothing about the release rules.`
          : `I checked ${refs}: ${facts.join('; ')}.`,
      risk_summary:
        broken.length === 0
          ? 'Nothing I checked breaks a release rule.'
          : `Shipping now would break ${broken.map((rule) => shortRuleId(rule)).join(' and ')}.`,
      policy_basis: currentPolicy,
      confidence_basis: `My confidence is ${proposal.confidence}; it rests on ${refs}.`,
    }[questionType]
  } else {
    if (aboutFacts && archetype !== 'deadline' && archetype !== 'developer') report = ordered(stanceReport(episode, proposal))
    answer = stanceAnswers[archetype][questionType]
  }
  return {
    tool: 'ask_worker',
    worker: proposal.worker,
    question_type: questionType,
    answer,
    refs: proposal.refs.slice(),
    confidence: proposal.confidence,
    reported_checks: report,
  }
}
