/**
 * @module release/inputs: loads a task from its files (registry, corpus, task config, grading config or a
 * grading manifest entry), validates each, checks them against each other and hashes the exact bytes.
 */

import { isAbsolute, relative, resolve } from 'node:path'
import { carriedCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { parseCategoryCorpus } from '../../envs/grading/assets/category-corpus.js'
import { type GradingConfig, parseGradingConfig } from '../../envs/grading/assets/grading-config.js'
import { parseLeafRegistry } from '../../envs/grading/assets/leaf-registry.js'
import { nativeMetadataFields, parseTaskConfig, type TaskConfig } from '../../envs/grading/assets/task-config.js'
import { createGradingTask, type GradingTask } from '../../envs/grading/grading-task.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256Hex } from '../../io/sha256.js'
import { parseGradingManifest } from '../contracts/grading-manifest.js'

export interface GradingSource {
  grading: GradingConfig
  sha256: string
  /** The grading file actually read. */
  path: string
}

export function loadGradingConfig(path: string): GradingSource {
  const file = readJsonFile(path, { kind: 'grading config' })
  return { grading: parseGradingConfig(file.value, path), sha256: sha256Hex(file.bytes), path }
}

/** A manifest entry: the file must stay inside the manifest's directory and hash to the recorded value. */
export function loadGradingFromManifest(options: { manifest: string; dataset: string }): GradingSource {
  const file = readJsonFile(options.manifest, { kind: 'grading manifest', strict: true })
  const manifest = parseGradingManifest(file.value, options.manifest)
  const entry = manifest.datasets[options.dataset]
  if (!entry) {
    throw new InvalidInputError({
      code: 'grading_manifest_missing_dataset',
      path: `${options.manifest}:datasets`,
      message: `Grading manifest ${options.manifest} has no entry for dataset "${options.dataset}" (has ${Object.keys(manifest.datasets).join(', ')}).`,
      issues: [
        {
          code: 'grading_manifest_missing_dataset',
          path: `${options.manifest}:datasets.${options.dataset}`,
          message: 'no entry',
        },
      ],
    })
  }
  const base = resolve(options.manifest, '..')
  const target = resolve(base, entry.path)
  const inside = relative(base, target)
  if (isAbsolute(entry.path) || inside.startsWith('..') || isAbsolute(inside)) {
    throw new InvalidInputError({
      code: 'path_escape',
      path: `${options.manifest}:datasets.${options.dataset}.path`,
      message: `Grading manifest path "${entry.path}" leaves the manifest's directory.`,
      issues: [
        {
          code: 'path_escape',
          path: `${options.manifest}:datasets.${options.dataset}.path`,
          message: 'must be relative and inside',
        },
      ],
    })
  }
  const source = loadGradingConfig(target)
  if (source.sha256 !== entry.sha256) {
    const path = `${options.manifest}:datasets.${options.dataset}.sha256`
    throw new InvalidInputError({
      code: 'grading_hash_mismatch',
      path,
      message: `Grading standard ${entry.path} has sha256 ${source.sha256}, but the manifest records ${entry.sha256}: the file changed or the manifest was tampered with.`,
      issues: [{ code: 'grading_hash_mismatch', path, message: `expected ${entry.sha256}, got ${source.sha256}` }],
    })
  }
  return source
}

export interface TaskFiles {
  registry: string
  corpus: string
  taskConfig?: string
  /** Overrides the task config's metadata fields. */
  metadataFields?: readonly string[]
  grading: GradingSource
}

export interface LoadedTask {
  task: GradingTask
  grading: GradingSource
  hashes: { registry: string; corpus: string; task_config: string | null; grading: string }
  /** The validated inputs as JSON values (what a worker needs to rebuild the task). */
  assets: { registry: unknown; corpus: unknown; grading: unknown; taskConfig: unknown }
}

export function loadTaskFiles(files: TaskFiles): LoadedTask {
  const registryFile = readJsonFile(files.registry, { kind: 'leaf registry' })
  const corpusFile = readJsonFile(files.corpus, { kind: 'category corpus' })
  const registry = parseLeafRegistry(registryFile.value, files.registry)
  const corpus = parseCategoryCorpus(corpusFile.value, files.corpus)
  let taskConfig: TaskConfig = { metadata_fields: [...nativeMetadataFields], task_name: 'data_classification' }
  let taskHash: string | null = null
  if (files.taskConfig) {
    const taskFile = readJsonFile(files.taskConfig, { kind: 'task config' })
    taskConfig = parseTaskConfig(taskFile.value, files.taskConfig)
    taskHash = sha256Hex(taskFile.bytes)
  }
  if (files.metadataFields && files.metadataFields.length > 0) {
    taskConfig = parseTaskConfig({ ...taskConfig, metadata_fields: [...files.metadataFields] }, '--metadata-fields')
  }
  try {
    return {
      task: createGradingTask({ registry, corpus, grading: files.grading.grading, taskConfig }),
      grading: files.grading,
      assets: { registry: registryFile.value, corpus: corpusFile.value, grading: files.grading.grading, taskConfig },
      hashes: {
        registry: sha256Hex(registryFile.bytes),
        corpus: sha256Hex(corpusFile.bytes),
        task_config: taskHash,
        grading: files.grading.sha256,
      },
    }
  } catch (error) {
    if (InvalidInputError.isInstance(error) && error.code === 'corpus_registry_mismatch') {
      const issues = error.issues.map((issue) => ({
        ...issue,
        path: issue.path.replace(/^registry:/, `${files.registry}:`).replace(/^corpus:/, `${files.corpus}:`),
      }))
      throw new InvalidInputError({
        code: carriedCode(error.code),
        path: files.corpus,
        message: `${files.corpus} does not cover ${files.registry} exactly: ${issues[0]?.message}.`,
        issues,
      })
    }
    throw error
  }
}
