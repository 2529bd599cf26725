/** @module envs/releaseops/v1/policies: tool-call builders shared by the baselines. */
export { approve, block, hold, inspectByPrefix } from '../../shared/policy-calls.js'
