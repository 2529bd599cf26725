/**
 * @module train: `hold-first`, a warm-up teacher whose first call needs no id: `hold_release` with a valid
 * reason code. A tiny model cannot learn to copy ids from a 3k-token observation in a short warm-up, so
 * without such calls every call it makes is rejected and GRPO only learns to stop calling tools. Mixed
 * with the env's own baselines (whose first calls name ids), it gives the warm model both accepted and
 * rejected calls, the spread GRPO learns from.
 */
import { generatorPolicy, type Policy } from '../core/policy/policy.js'

export const holdFirstPolicyName = 'hold-first'

export function holdFirstPolicy(reasonCode = 'awaiting_fix'): Policy {
  return generatorPolicy(holdFirstPolicyName, function* () {
    for (;;) yield { name: 'hold_release', arguments: { reason_code: reasonCode } }
  })
}
