/**
 * @module envs/releaseops/arena: the two random streams a scenario is drawn from. `visible` draws
 * everything a policy can ever see (ids, texts, numbers, order, budget, deadline) and `hidden` draws the
 * facts and the rolls; the visible stream never reads the hidden one, so flipping a fact changes no
 * visible draw. An env owns one pair and re-seeds it in place for every draw: allocating and filling
 * CPython's 624-word state twice per reset dominated the reset profile, and a pair shared between envs
 * would let one env's draw corrupt another's.
 */
import { PythonRandom } from '../../../core/python/python-random.js'

export class ScenarioRandom {
  readonly visible = new PythonRandom(0)
  readonly hidden = new PythonRandom(0)

  /** Re-seeds both streams for one attempt at `seed`, in place. */
  reseed(seed: number, attempt: number): void {
    this.visible.seed(streamSeed(seed, attempt, 0))
    this.hidden.seed(streamSeed(seed, attempt, 1))
  }
}

/**
 * Stream seeds: 2|seed| (+1 when negative) keeps seeds apart; attempt and stream take the low 8 bits.
 * Kept a number below 2^32 when it fits (CPython's one-word seeding, the generator's fast path).
 */
function streamSeed(seed: number, attempt: number, stream: 0 | 1): number | bigint {
  const folded = Math.abs(seed) * 2 + (seed < 0 ? 1 : 0)
  const value = folded * 256 + attempt * 2 + stream
  return Number.isSafeInteger(value) ? value : BigInt(folded) * 256n + BigInt(attempt * 2 + stream)
}
