/** @module release/planning: the task files a release command takes, and how its grading standard is chosen. */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import {
  type GradingSource,
  type LoadedTask,
  loadGradingConfig,
  loadGradingFromManifest,
  loadTaskFiles,
} from '../inputs/load-task-files.js'

export interface TaskOptions {
  dataset: string
  registry: string
  corpus: string
  taskConfig?: string
  metadataFields?: readonly string[]
  /** A grading config file, or… */
  gradingConfig?: string
  /** …a grading manifest whose entry for `dataset` is verified by hash. */
  gradingManifest?: string
}

export function resolveGrading(options: TaskOptions): GradingSource {
  if (Boolean(options.gradingConfig) === Boolean(options.gradingManifest)) {
    throw new InvalidInputError({
      code: 'invalid_option',
      path: '--grading-config',
      message: 'Give exactly one of --grading-config <file> or --grading-manifest <file>.',
      issues: [
        { code: 'invalid_option', path: '--grading-config', message: 'exactly one of --grading-config, --grading-manifest' },
      ],
    })
  }
  return options.gradingConfig
    ? loadGradingConfig(options.gradingConfig)
    : loadGradingFromManifest({ manifest: options.gradingManifest as string, dataset: options.dataset })
}

/** Loads and checks the task files named by a release command's options. */
export function loadTaskFor(options: TaskOptions): LoadedTask {
  return loadTaskFiles({
    registry: options.registry,
    corpus: options.corpus,
    ...(options.taskConfig ? { taskConfig: options.taskConfig } : {}),
    ...(options.metadataFields ? { metadataFields: options.metadataFields } : {}),
    grading: resolveGrading(options),
  })
}

/**
 * The grading standard of each dataset of a release: a grading config stands for one dataset's standard,
 * so it is taken only for a single-dataset release (a mixture has one standard per dataset: a manifest).
 */
export function gradingForDatasets(options: {
  gradingConfig?: string
  gradingManifest?: string
  datasets: readonly string[]
}): (dataset: string) => GradingSource {
  const { gradingConfig, gradingManifest, datasets } = options
  if (gradingConfig && !gradingManifest && datasets.length > 1) {
    const message = `--grading-config names one standard, but the release holds ${datasets.length} datasets (${datasets.join(', ')}): pass --grading-manifest with an entry per dataset.`
    throw new InvalidInputError({
      code: 'invalid_option',
      path: '--grading-config',
      message,
      issues: [{ code: 'invalid_option', path: '--grading-config', message }],
    })
  }
  return (dataset) =>
    resolveGrading({
      dataset,
      ...(gradingConfig ? { gradingConfig } : {}),
      ...(gradingManifest ? { gradingManifest } : {}),
    } as TaskOptions)
}
