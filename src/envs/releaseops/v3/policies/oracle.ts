/**
 * @module envs/releaseops/v3/policies: `oracle`, the privileged ceiling. It reads the hidden episode
 * through the env (in-process only) and plays the plan that proves every v3 episode winnable; the
 * policy itself is the Arena's (`privilegedOracle`) over v3's env class and plan.
 */
import type { Policy } from '../../../../core/policy/policy.js'
import { privilegedOracle } from '../../arena/policies/privileged-oracle.js'
import { oracleNextCallV3 } from '../oracle-plan.js'
import { ReleaseOpsV3Env, type ReleaseOpsV3Observation } from '../releaseops-env.js'

export function oracleV3Policy(): Policy<ReleaseOpsV3Observation> {
  return privilegedOracle({ envId: 'releaseops-v3', envClass: ReleaseOpsV3Env, nextCall: oracleNextCallV3 })
}
