/** @module releaseops: the public API (the CLI is `releaseops`). */
export * from './agent/index.js'
export { type EpisodeEnd, type PolicyEpisodeResult, runPolicyEpisode, type StepRecord } from './agent/run-policy-episode.js'
export { hasToolCall, isStepCount, isTerminated, isTruncated, type StopCondition } from './agent/stop-condition.js'
export * from './chat/index.js'
export { type ConnectEnvOptions, connectEnv, WebSocketEnv } from './client/index.js'
export * from './core/index.js'
export {
  createGradingTask,
  finalResponseAction,
  GradingEnv,
  type GradingObservation,
  type GradingTask,
  gradingV1Spec,
  nativeToolTrajectoryFormat,
  parseCategoryCorpus,
  parseGradingConfig,
  parseLeafRegistry,
  parseTaskConfig,
} from './envs/grading/index.js'
export { defaultEnvId, envRegistry, makeEnv, policyRegistry } from './envs/index.js'
export { buildSummary, type EvalSummary, type PolicySummary } from './eval/build-summary.js'
export { type Comparison, compareRuns } from './eval/compare-evals.js'
export type { EpisodeRecord } from './eval/episode-record.js'
export { runRolloutGate } from './eval/gate/run-rollout-gate.js'
export type { LlmEpisodeLine } from './eval/llm-episode-record.js'
export { buildLlmSummary } from './eval/llm-summary.js'
export { loadComparedRun } from './eval/load-compared-run.js'
export { type LoadedDataset, loadDataset } from './eval/load-dataset.js'
export { passHatK } from './eval/pass-hat-k.js'
export { type RunEvalOptions, runEval } from './eval/run-eval.js'
export { runFingerprint } from './eval/run-fingerprint.js'
export { type LlmEvalRun, type RunLlmEvalOptions, runLlmEval } from './eval/run-llm-eval.js'
export { wilsonInterval } from './eval/wilson-interval.js'
export { runDemoData } from './release/demo/write-demo-data.js'
export { runMixtureBuild } from './release/mixtures/run-mixture-build.js'
export { runDemoPipeline, runPipeline } from './release/pipeline/run-pipeline.js'
export { type ReleaseLineOptions, runReleaseLine } from './release/pipeline/run-release-line.js'
export { runRlExport } from './release/rl/run-rl-export.js'
export { loadTrajectoryRelease, type TrajectoryRow, validateTrajectoryRelease } from './release/trajectories/index.js'
export { runVerlPreflight } from './train/verl/run-verl-preflight.js'
export { runVerlConfig } from './train/verl/write-verl-config.js'
