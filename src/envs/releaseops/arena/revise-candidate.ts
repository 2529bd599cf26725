/**
 * @module envs/releaseops/arena: what a phase advance does to the facts. A broken fact reported by a true
 * block is repaired; an unreported one is repaired only with the revision author's probability (family,
 * archetype and difficulty), and never when an approval vouched for it; a blind revision (nothing was
 * blocked this phase) may break a fact of the family that was fine. The revision's claims say "fixed"
 * either way; only its new evidence shows what happened.
 *
 * Every decision about a fact reads only that fact, the actions and the rolls, never another fact: so
 * flipping one hidden fact changes no other fact, now or after any number of revisions.
 */
import type { ReleaseFacts } from '../shared/safety-rules.js'
import { badValue, type FactKey, factKeys, isFactBad, ruleOfFact } from './facts.js'
import type { Scenario } from './scenario.js'

/** What a revision reads of the episode, and the facts it rewrites (an `ArenaEpisode` is one). */
export interface RevisedEpisode {
  readonly scenario: Pick<Scenario, 'hidden' | 'hazards' | 'fixProbability' | 'breakProbability'>
  readonly metrics: { readonly phase_advances: number }
  readonly blocksThisPhase: number
  readonly facts: ReleaseFacts
  readonly reported: ReadonlySet<FactKey>
  readonly accepted: ReadonlySet<FactKey>
}

export function reviseCandidate(episode: RevisedEpisode): void {
  const scenario = episode.scenario
  const advance = episode.metrics.phase_advances - 1
  const fixRolls = scenario.hidden.fixRolls[advance]
  const breakRolls = scenario.hidden.breakRolls[advance]
  if (!fixRolls || !breakRolls) return
  const blind = episode.blocksThisPhase === 0
  for (const fact of factKeys) {
    if (isFactBad(episode.facts, fact)) {
      const repaired =
        episode.reported.has(fact) || (!episode.accepted.has(fact) && fixRolls[ruleOfFact[fact]] < scenario.fixProbability)
      if (repaired) episode.facts[fact] = !badValue[fact]
    } else if (blind && scenario.hazards.includes(fact) && breakRolls[fact] < scenario.breakProbability) {
      episode.facts[fact] = badValue[fact]
    }
  }
}
