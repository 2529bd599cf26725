/** @module envs/grading: the `grading-v1` registration (demo task), its baselines and the task's public API. */
import type { EnvRegistration } from '../../core/registry/env-registry.js'
import type { PolicyRegistration } from '../../core/registry/policy-registry.js'
import { demoEpisodeSources, demoGradingDataset, demoGradingTask } from './demo/demo-task.js'
import { GradingEnv, type GradingObservation, gradingV1Spec } from './grading-env.js'
import { oraclePolicy } from './policies/oracle-policy.js'
import { searchTopPolicy } from './policies/search-top-policy.js'
import { summarizeGradingEpisode } from './summarize-grading-episode.js'

export const gradingV1: EnvRegistration<GradingObservation> = {
  spec: gradingV1Spec,
  create: () => new GradingEnv({ task: demoGradingTask(), defaultSources: demoEpisodeSources() }),
  dataset: demoGradingDataset,
  summarizeEpisode: summarizeGradingEpisode,
}

export const gradingV1Policies: PolicyRegistration[] = [
  {
    name: 'search-top1',
    description: 'Call search_categories once and answer its first candidate with the middle level.',
    create: () => searchTopPolicy(demoGradingTask().grading.levels) as never,
  },
  {
    name: 'oracle',
    description: "Answer the episode's labels directly (reads hidden state).",
    privileged: true,
    create: () => oraclePolicy() as never,
  },
]

export { type CategoryCorpus, type CorpusCategory, parseCategoryCorpus } from './assets/category-corpus.js'
export { type GradingConfig, gradingRubric, parseGradingConfig } from './assets/grading-config.js'
export { type LeafCategory, type LeafRegistry, parseLeafRegistry } from './assets/leaf-registry.js'
export { issuePath, parseAsset } from './assets/parse-asset.js'
export { nativeMetadataFields, parseTaskConfig, type TaskConfig } from './assets/task-config.js'
export { exactAnswerReward, type FinalAnswer, parseFinalAnswer } from './final-answer.js'
export { finalResponseAction, GradingEnv, type GradingObservation, gradingV1Spec } from './grading-env.js'
export { episodeSourceFromOptions, type GradingEpisodeSource } from './grading-episode-source.js'
export { corpusCoverageIssues, createGradingTask, type GradingTask, type GradingTaskAssets } from './grading-task.js'
export { buildNativeToolPrompt, buildNativeUserPrompt, nativeToolTrajectoryFormat } from './native-prompt.js'
export { type PromptChoice, PromptChoices } from './prompt-choices.js'
export { stableRecordId, uuid5 } from './stable-record-id.js'
export { CategoryToolbox, scopeKeyOf } from './tools/category-toolbox.js'
export { categoryTools } from './tools/category-tools.js'
