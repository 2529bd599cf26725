/**
 * @module envs/releaseops/v3: v3's archetype mixes. Training mixes are v2's; the held-out mix is a
 * shortcut author (the worker whose blind revisions break the most and fix the least: "CI is green")
 * reviewed by an overconfident reviewer who answers from stance, with a deadline-driven third worker:
 * a team where nobody who can point at evidence reads it, a combination no training mix has (every
 * training mix has a careful or stale reviewer, and no training mix has a shortcut author under a
 * non-careful reviewer). For the evidence-using baseline a mix matters mostly through whether the
 * reviewer is careful and the author's archetype. A scan of all 119 non-training mixes (paired on the
 * held-out-mix test's 1,080 episodes) puts this mix in the hardest class (shortcut author, non-careful
 * reviewer, any third: 0.695, 0.021–0.110 below the training mixes); on the eval split's own 60 rows it
 * scores 0.772 and no mix scores below that, so no choice of mix is 0.1 below eval_seen (0.815). See
 * decision 0035.
 */
import { trainMixes } from '../v2/archetype-mixes.js'

export const trainMixesV3 = trainMixes
export const heldOutMixesV3 = ['shortcut__overconfident__deadline'] as const
