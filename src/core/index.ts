/** @module core: the pure contracts every layer builds on. */
export type {
  AnyEnv,
  AsyncEnv,
  Env,
  EnvError,
  EnvErrorIssue,
  EnvSpec,
  EpisodeInfo,
  Observation,
  ResetParams,
  ResetResult,
  StepResult,
  ToolCall,
} from './env/env-api.js'
export type { DatasetRow, EnvDataset, EpisodeOutcome } from './env/env-dataset.js'
export * from './errors/index.js'
export * from './json/index.js'
export { generatorPolicy, type Policy, type PolicyEpisode, type PolicyStart } from './policy/policy.js'
export * from './python/index.js'
export { type EnvRegistration, EnvRegistry, type FinishedEpisode, type MakeEnvOptions } from './registry/env-registry.js'
export { type PolicyRegistration, PolicyRegistry } from './registry/policy-registry.js'
export * from './testing/index.js'
export * from './tools/index.js'
export * from './wire/openenv-reply.js'
export { EnvWrapper } from './wrappers/env-wrapper.js'
export { StepLimit, withStepLimit } from './wrappers/step-limit.js'
