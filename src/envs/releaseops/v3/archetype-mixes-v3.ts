/**
 * @module envs/releaseops/v3: v3's archetype mixes. Training mixes are v2's; the held-out mix puts
 * stance-answering workers in every role that can point at evidence (an overconfident reviewer, a
 * shortcut author whose blind revisions break the most, a deadline bystander), a combination no
 * training mix has.
 */
import { trainMixes } from '../v2/archetype-mixes.js'

export const trainMixesV3 = trainMixes
export const heldOutMixesV3 = ['shortcut__overconfident__deadline'] as const
