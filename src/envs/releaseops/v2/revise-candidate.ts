/**
 * @module envs/releaseops/v2: what a phase advance does to the facts. A broken fact reported by a true
 * block is repaired; an unreported one is repaired only with the revision author's probability (family,
 * archetype and difficulty), and never when an approval vouched for it; a blind revision (nothing was
 * blocked this phase) may break a fact of the family that was fine. The revision's claims say "fixed"
 * either way; only its new evidence shows what happened.
 *
 * Every decision about a fact reads only that fact, the actions and the rolls, never another fact: so
 * flipping one hidden fact changes no other fact, now or after any number of revisions.
 */
import type { EpisodeV2 } from './episode-v2.js'
import { badValue, factKeys, isFactBad, ruleOfFact } from './facts.js'

export function reviseCandidate(episode: EpisodeV2): void {
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
