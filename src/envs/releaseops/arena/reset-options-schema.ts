/** @module envs/releaseops/arena: the reset-options schema of a ReleaseOps version, given its families. */
import { z } from 'zod'
import { archetypes } from './archetypes.js'
import { difficulties } from './difficulty.js'

const archetypePattern = archetypes.join('|')
const mixPattern = new RegExp(`^(${archetypePattern})__(${archetypePattern})__(${archetypePattern})$`)

export function resetOptionsSchema<const F extends readonly [string, ...string[]]>(families: F) {
  return z.object({
    family: z.enum(families).default('green_ci_disabled_payment_test' as F[number] & string),
    difficulty: z.enum(difficulties).default('medium'),
    /** `author__reviewer__third`; defaults to the family's own mix. */
    archetype_mix: z
      .string()
      .regex(
        mixPattern,
        'Expected author__reviewer__third, each one of careful, overconfident, shortcut, stale_policy, deadline.',
      )
      .optional(),
    /** Consecutive free calls that change nothing (re-reads, repeated questions) before the episode is truncated. */
    no_progress_limit: z.number().int().min(1).max(64).default(6),
  })
}
