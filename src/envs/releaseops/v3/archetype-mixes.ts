/**
 * @module envs/releaseops/v3: v3's archetype mixes. Training mixes are v2's; the held-out mix is a
 * shortcut author (the worker whose blind revisions break the most and fix the least: "CI is green")
 * reviewed by an overconfident reviewer who answers from stance, with a deadline-driven third worker:
 * a team where nobody who can point at evidence reads it, a combination no training mix has (every
 * training mix has a careful or stale reviewer, and no training mix has a shortcut author under a
 * non-careful reviewer). With no careful reviewer to send it back, that author links re-runs of the
 * failed jobs in place of full CI runs (`partial-rerun.ts`), a behaviour the evidence-using baseline
 * first meets here: it costs it 0.66 on the eval split's 60 rows (0.154 against eval_seen's 0.815) and
 * 0.58–0.67 paired against every training mix. See decision 0035.
 */
import { trainMixes } from '../arena/archetype-mixes.js'

export const trainMixesV3 = trainMixes
export const heldOutMixesV3 = ['shortcut__overconfident__deadline'] as const
