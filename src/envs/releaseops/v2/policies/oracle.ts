/**
 * @module envs/releaseops/v2/policies: `oracle`, the privileged ceiling. It reads the hidden episode
 * through the env (in-process only) and plays the plan that proves every v2 episode winnable.
 */
import type { Policy } from '../../../../core/policy/policy.js'
import { oracleNextCall } from '../../arena/oracle-plan.js'
import { privilegedOracle } from '../../arena/policies/privileged-oracle.js'
import { ReleaseOpsV2Env, type ReleaseOpsV2Observation } from '../releaseops-env.js'

export function oraclePolicy(): Policy<ReleaseOpsV2Observation> {
  return privilegedOracle({ envId: 'releaseops-v2', envClass: ReleaseOpsV2Env, nextCall: oracleNextCall })
}
