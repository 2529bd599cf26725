/**
 * @module envs/releaseops/v3/families: v2's eight families (imported unchanged) plus one with a new
 * evidence structure. Held out of training: v2's two held-out families and `flag_gated_payment_suite`,
 * whose violation shows only by combining two artifacts, one of which the ship does not cite.
 */

import { familiesV2, familySpec as familySpecV2, heldOutFamiliesV2, seenFamiliesV2 } from '../../arena/families/index.js'
import type { FamilySpec } from '../../arena/family-spec.js'
import { flagGatedPaymentSuite } from './flag-gated-payment-suite.js'

export const familiesV3 = [...familiesV2, 'flag_gated_payment_suite'] as const
export type FamilyV3 = (typeof familiesV3)[number]

export const heldOutFamiliesV3: readonly FamilyV3[] = [...heldOutFamiliesV2, 'flag_gated_payment_suite']
export const seenFamiliesV3: readonly FamilyV3[] = seenFamiliesV2

export function familySpecV3(id: FamilyV3): FamilySpec {
  return id === 'flag_gated_payment_suite' ? flagGatedPaymentSuite : familySpecV2(id)
}
