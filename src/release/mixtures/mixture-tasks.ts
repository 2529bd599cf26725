/**
 * @module release/mixtures: the task of every dataset of a mixture: one registry, corpus and task config
 * shared by all (the prompts and tools must agree), and each dataset's grading standard from the grading
 * manifest, whose recorded sha256 is checked against the exact bytes of the grading file (a one-byte
 * change is refused).
 */

import { readFileBytes } from '../../io/read-json-file.js'
import { sha256Hex } from '../../io/sha256.js'
import { type LoadedTask, loadGradingFromManifest, loadTaskFiles } from '../inputs/load-task-files.js'

export interface MixtureTaskFiles {
  registry: string
  corpus: string
  taskConfig?: string
  metadataFields?: readonly string[]
  gradingManifest: string
}

export interface MixtureTasks {
  byDataset: Record<string, LoadedTask>
  /** Lineage recorded in the mixture report (hashes only: no machine paths in artifacts). */
  manifest: { sha256: string; datasets: Record<string, { sha256: string; levels: string[]; gt_field: string }> }
  task: {
    registry_sha256: string
    corpus_sha256: string
    task_config_sha256: string | null
    metadata_fields: string[]
    task_name: string
  }
}

export function loadMixtureTasks(options: MixtureTaskFiles & { datasets: readonly string[] }): MixtureTasks {
  const manifestSha256 = sha256Hex(readFileBytes(options.gradingManifest, 'grading manifest'))
  const byDataset: Record<string, LoadedTask> = {}
  const datasets: MixtureTasks['manifest']['datasets'] = {}
  for (const dataset of options.datasets) {
    const grading = loadGradingFromManifest({ manifest: options.gradingManifest, dataset })
    const loaded = loadTaskFiles({
      registry: options.registry,
      corpus: options.corpus,
      ...(options.taskConfig ? { taskConfig: options.taskConfig } : {}),
      ...(options.metadataFields ? { metadataFields: options.metadataFields } : {}),
      grading,
    })
    byDataset[dataset] = loaded
    datasets[dataset] = { sha256: grading.sha256, levels: [...grading.grading.levels], gt_field: grading.grading.gt_field }
  }
  const first = byDataset[options.datasets[0] as string] as LoadedTask
  return {
    byDataset,
    manifest: { sha256: manifestSha256, datasets },
    task: {
      registry_sha256: first.hashes.registry,
      corpus_sha256: first.hashes.corpus,
      task_config_sha256: first.hashes.task_config,
      metadata_fields: [...first.task.taskConfig.metadata_fields],
      task_name: first.task.taskConfig.task_name,
    },
  }
}
