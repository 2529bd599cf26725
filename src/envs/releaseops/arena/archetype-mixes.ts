/**
 * @module envs/releaseops/arena: `archetype_mix` says which archetype plays each role of a family
 * (`author` makes the main proposal, `reviewer` gives the second opinion, `third` is the bystander who
 * pushes or endorses). Ids read `author__reviewer__third`. One mix is held out of training.
 */
import { InvalidInputError } from '../../../core/errors/invalid-input-error.js'
import type { Archetype } from './archetypes.js'

const roles = ['author', 'reviewer', 'third'] as const
export type Role = (typeof roles)[number]
export type ArchetypeMix = Readonly<Record<Role, Archetype>>

export const trainMixes = [
  'shortcut__careful__deadline',
  'stale_policy__careful__deadline',
  'overconfident__careful__shortcut',
  'deadline__careful__overconfident',
  'careful__careful__overconfident',
  'careful__stale_policy__deadline',
] as const

/** Never in train or eval_seen: the reviewer, careful or stale in every training mix, is overconfident here. */
export const heldOutMixes = ['careful__overconfident__stale_policy'] as const

export const archetypeMixes = [...trainMixes, ...heldOutMixes] as const
export type ArchetypeMixId = (typeof archetypeMixes)[number]

export function parseArchetypeMix(id: string): ArchetypeMix {
  const parts = id.split('__')
  const known = new Set<string>(['careful', 'overconfident', 'shortcut', 'stale_policy', 'deadline'])
  if (parts.length !== 3 || !parts.every((part) => known.has(part))) {
    throw new InvalidInputError({
      code: 'invalid_archetype_mix',
      message: `Archetype mix "${id}" is not author__reviewer__third with archetypes careful, overconfident, shortcut, stale_policy, deadline.`,
      issues: [{ code: 'invalid_value', path: 'options.archetype_mix', message: `Unknown archetype mix: ${id}` }],
    })
  }
  const [author, reviewer, third] = parts as [Archetype, Archetype, Archetype]
  return { author, reviewer, third }
}
