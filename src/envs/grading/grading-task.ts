/**
 * @module envs/grading: one classification-and-grading task: registry, corpus, grading standard and task
 * config, checked against each other once (the corpus covers the registry exactly, display names are
 * unique), with the prompt choices, the toolbox and the system prompt built once and shared.
 */
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { CategoryCorpus, CorpusCategory } from './assets/category-corpus.js'
import type { GradingConfig } from './assets/grading-config.js'
import type { LeafRegistry } from './assets/leaf-registry.js'
import { nativeMetadataFields, type TaskConfig } from './assets/task-config.js'
import { buildNativeSystemPrompt } from './native-prompt.js'
import { PromptChoices } from './prompt-choices.js'
import { CategoryToolbox } from './tools/category-toolbox.js'

export interface GradingTaskAssets {
  registry: LeafRegistry
  corpus: CategoryCorpus
  grading: GradingConfig
  /** Defaults to the four native fields. */
  taskConfig?: TaskConfig
}

export interface GradingTask {
  readonly registry: LeafRegistry
  readonly corpus: ReadonlyMap<string, CorpusCategory>
  readonly grading: GradingConfig
  readonly taskConfig: TaskConfig
  readonly choices: PromptChoices
  readonly toolbox: CategoryToolbox
  /** The native-v2 system message (the same for every record of the task). */
  readonly systemPrompt: string
}

/** Missing and extra corpus ids against the registry, as issues. */
export function corpusCoverageIssues(registry: LeafRegistry, corpus: CategoryCorpus): InputIssue[] {
  const registryIds = new Set(registry.categories.map((category) => category.category_id))
  const corpusIds = new Set(corpus.categories.map((category) => category.category_id))
  const issues: InputIssue[] = []
  registry.categories.forEach((category, index) => {
    if (!corpusIds.has(category.category_id)) {
      issues.push({
        code: 'missing_from_corpus',
        path: `registry:categories.${index}.category_id`,
        message: `registry category "${category.category_id}" has no corpus entry`,
      })
    }
  })
  corpus.categories.forEach((category, index) => {
    if (!registryIds.has(category.category_id)) {
      issues.push({
        code: 'not_in_registry',
        path: `corpus:categories.${index}.category_id`,
        message: `corpus category "${category.category_id}" is not in the registry`,
      })
    }
  })
  return issues
}

export function createGradingTask(assets: GradingTaskAssets): GradingTask {
  const issues = corpusCoverageIssues(assets.registry, assets.corpus)
  if (issues.length > 0) {
    throw new InvalidInputError({
      code: 'corpus_registry_mismatch',
      message: `The corpus must cover the registry exactly: ${issues.length} mismatch(es), first: ${issues[0]?.message}.`,
      issues,
    })
  }
  const corpus = new Map(assets.corpus.categories.map((category) => [category.category_id, category]))
  const choices = new PromptChoices(assets.registry)
  return {
    registry: assets.registry,
    corpus,
    grading: assets.grading,
    taskConfig: assets.taskConfig ?? { metadata_fields: [...nativeMetadataFields], task_name: 'data_classification' },
    choices,
    toolbox: new CategoryToolbox({ registry: assets.registry, corpus, choices }),
    systemPrompt: buildNativeSystemPrompt({ grading: assets.grading, choices }),
  }
}
