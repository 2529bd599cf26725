/** @module envs: the built-in environments and their policies, registered once. */
import type { Env, Observation } from '../core/env/env-api.js'
import { EnvRegistry, type MakeEnvOptions } from '../core/registry/env-registry.js'
import { PolicyRegistry } from '../core/registry/policy-registry.js'
import { gradingV1, gradingV1Policies } from './grading/index.js'
import { releaseOpsV1, releaseOpsV1Policies } from './releaseops/v1/index.js'
import { releaseOpsV2, releaseOpsV2Policies } from './releaseops/v2/index.js'
import { releaseOpsV3, releaseOpsV3Policies } from './releaseops/v3/index.js'

export const envRegistry = new EnvRegistry()
export const policyRegistry = new PolicyRegistry()

envRegistry.register(releaseOpsV1)
for (const policy of releaseOpsV1Policies) policyRegistry.register(releaseOpsV1.spec.id, policy)
envRegistry.register(releaseOpsV2)
for (const policy of releaseOpsV2Policies) policyRegistry.register(releaseOpsV2.spec.id, policy)
envRegistry.register(releaseOpsV3)
for (const policy of releaseOpsV3Policies) policyRegistry.register(releaseOpsV3.spec.id, policy)
envRegistry.register(gradingV1)
for (const policy of gradingV1Policies) policyRegistry.register(gradingV1.spec.id, policy)

/** The env every command uses when none is named. */
export { defaultEnvId } from './default-env-id.js'

/** `makeEnv(id)`: a registered env with the default wrappers (step limit, order checks). */
export function makeEnv<O extends Observation = Observation>(id: string, options?: MakeEnvOptions): Env<O> {
  return envRegistry.make<O>(id, options)
}
