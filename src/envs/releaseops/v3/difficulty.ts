/**
 * @module envs/releaseops/v3: v3 keeps v2's difficulty table except evidence actions per phase at
 * `high` (1 → 2): a block counts only with evidence, and two broken rules need two inspections in
 * the first phase for an episode to stay winnable in 24 hours.
 */
import type { Difficulty } from '../arena/difficulty.js'

export const evidencePerPhaseV3: Readonly<Record<Difficulty, number>> = { low: 3, medium: 2, high: 2 }

/** Hours a rejected block costs (the worker answers, re-proposes and the review restarts). */
export const rejectedBlockHours = 6
