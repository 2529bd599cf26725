/**
 * @module release/canonical: `releaseops release canonical build`: processed records + dataset config +
 * registry + corpus → `<canonical-dir>/<dataset>/{all.json, resolution_report.json}`, published atomically.
 */

import { writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { carriedCode } from '../../core/errors/error-code.js'
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { type CategoryCorpus, parseCategoryCorpus } from '../../envs/grading/assets/category-corpus.js'
import { type LeafRegistry, parseLeafRegistry } from '../../envs/grading/assets/leaf-registry.js'
import { corpusCoverageIssues } from '../../envs/grading/grading-task.js'
import { withFailedAudit } from '../../io/failed-audit.js'
import { publishDirectory } from '../../io/publish-directory.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { readRecordArray, writeRecordArray } from '../../io/record-array-file.js'
import { sha256Hex } from '../../io/sha256.js'
import type { DatasetConfig } from '../contracts/dataset-config.js'
import { checkDatasetName, checkFormalDataset } from '../contracts/dataset-name.js'
import { buildCanonicalRecords, codeByLeafName, type ResolutionReport } from './build-canonical.js'
import { loadDatasetsFile } from './load-datasets-file.js'
import { checkLostLabels } from './unresolved-labels.js'

export interface RunCanonicalBuildOptions {
  dataset: string
  configFile: string
  canonicalDir: string
  /** `<processed-dir>/<dataset>/all.json`, or an explicit file. */
  processedDir?: string
  processed?: string
  /** `<registry-dir>/<registry_source or dataset>.registry.json`, or an explicit file. */
  registryDir?: string
  registry?: string
  corpusDir?: string
  corpus?: string
  formal?: boolean
  overwrite?: boolean
  failedAudit?: string
  /** Publish even when labelled records resolve to no category (they are still counted and reported). */
  allowUnresolved?: boolean
}

function pickPath(options: { file?: string | undefined; directory?: string | undefined; name: string; flag: string }): string {
  if (options.file && options.directory) {
    throw new InvalidInputError({
      code: 'conflicting_options',
      path: `--${options.flag}`,
      message: `Give --${options.flag} or --${options.flag}-dir, not both.`,
      issues: [{ code: 'conflicting_options', path: `--${options.flag}`, message: 'give one of the two' }],
    })
  }
  if (options.file) return options.file
  if (options.directory) return join(options.directory, options.name)
  throw new InvalidInputError({
    code: 'missing_option',
    path: `--${options.flag}`,
    message: `Give --${options.flag} <file> or --${options.flag}-dir <dir>.`,
    issues: [{ code: 'missing_option', path: `--${options.flag}`, message: 'required' }],
  })
}

export interface CanonicalInputs {
  config: DatasetConfig
  registry: LeafRegistry
  corpus?: CategoryCorpus
  codeByLeaf: Map<string, string>
  hashes: { registry_sha256: string; corpus_sha256: string | null }
}

/** The dataset config, registry and corpus of a canonical build, checked against each other. */
export function loadCanonicalInputs(options: {
  dataset: string
  configFile: string
  registry: string
  corpus?: string
  formal?: boolean
}): CanonicalInputs {
  const datasets = loadDatasetsFile(options.configFile)
  if (options.formal)
    checkFormalDataset({ names: [options.dataset], formal: datasets.formalDatasets, source: options.configFile })
  const config = datasets.datasets.get(options.dataset)
  if (!config) {
    throw new InvalidInputError({
      code: 'unknown_dataset',
      path: `${options.configFile}:datasets`,
      message: `Dataset "${options.dataset}" is not configured in ${options.configFile} (configured: ${[...datasets.datasets.keys()].join(', ')}).`,
      issues: [{ code: 'unknown_dataset', path: `${options.configFile}:datasets.${options.dataset}`, message: 'not configured' }],
    })
  }
  const registryFile = readJsonFile(options.registry, { kind: 'leaf registry' })
  const registry = parseLeafRegistry(registryFile.value, options.registry)
  let corpus: CategoryCorpus | undefined
  let corpusSha: string | null = null
  if (options.corpus) {
    const corpusFile = readJsonFile(options.corpus, { kind: 'category corpus' })
    corpus = parseCategoryCorpus(corpusFile.value, options.corpus)
    corpusSha = sha256Hex(corpusFile.bytes)
    const coverage = corpusCoverageIssues(registry, corpus).map((issue) => ({
      ...issue,
      path: issue.path.replace(/^registry:/, `${options.registry}:`).replace(/^corpus:/, `${options.corpus}:`),
    }))
    if (coverage.length > 0) {
      throw new InvalidInputError({
        code: 'corpus_registry_mismatch',
        path: options.corpus,
        message: `${options.corpus} does not cover ${options.registry} exactly: ${coverage[0]?.message}${coverage.length > 1 ? ` (+${coverage.length - 1} more)` : ''}.`,
        issues: coverage,
      })
    }
  } else if (config.id_strategy === 'code') {
    throw new InvalidInputError({
      code: 'missing_option',
      path: '--corpus',
      message: `Dataset "${options.dataset}" resolves labels by code, which needs the corpus (--corpus or --corpus-dir).`,
      issues: [{ code: 'missing_option', path: '--corpus', message: 'required for id_strategy code' }],
    })
  }
  // Only code ids need a leaf name → code map: path ids exist so that leaf names may repeat (decision 0039).
  const codes =
    config.id_strategy === 'code' ? codeByLeafName(corpus, options.corpus ?? 'corpus') : { map: new Map(), issues: [] }
  if (codes.issues.length > 0) {
    throw new InvalidInputError({
      code: 'ambiguous_leaf_code',
      message: `The corpus maps a leaf name to two codes: ${codes.issues[0]?.message}.`,
      issues: codes.issues,
    })
  }
  return {
    config,
    registry,
    ...(corpus ? { corpus } : {}),
    codeByLeaf: codes.map,
    hashes: { registry_sha256: sha256Hex(registryFile.bytes), corpus_sha256: corpusSha },
  }
}

/** Throws the build's record issues as one error. */
export function throwBuildIssues(source: string, issues: readonly InputIssue[]): void {
  if (issues.length === 0) return
  const first = issues[0]
  throw new InvalidInputError({
    code: carriedCode(first?.code ?? 'invalid_record'),
    path: first?.path ?? source,
    message: `${source} has ${issues.length} invalid record(s); first: ${first?.path}: ${first?.message}.`,
    issues: issues.slice(0, 500),
  })
}

export async function runCanonicalBuild(options: RunCanonicalBuildOptions): Promise<ResolutionReport> {
  // Checked first: the name is part of every output path, including the failed audit's.
  checkDatasetName(options.dataset)
  const output = join(options.canonicalDir, options.dataset)
  return withFailedAudit(
    { stage: 'canonical build', output, ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}) },
    async () => {
      const datasets = loadDatasetsFile(options.configFile)
      const registryName = datasets.datasets.get(options.dataset)?.registry_source ?? options.dataset
      const inputs = loadCanonicalInputs({
        dataset: options.dataset,
        configFile: options.configFile,
        registry: pickPath({
          file: options.registry,
          directory: options.registryDir,
          name: `${registryName}.registry.json`,
          flag: 'registry',
        }),
        ...(options.corpus || options.corpusDir
          ? {
              corpus: pickPath({
                file: options.corpus,
                directory: options.corpusDir,
                name: `${options.dataset}.corpus.json`,
                flag: 'corpus',
              }),
            }
          : {}),
        ...(options.formal ? { formal: true } : {}),
      })
      const processedPath = pickPath({
        file: options.processed,
        directory: options.processedDir && join(options.processedDir, options.dataset),
        name: 'all.json',
        flag: 'processed',
      })
      const processed = readRecordArray(processedPath, 'processed records')
      const built = buildCanonicalRecords({
        dataset: options.dataset,
        config: inputs.config,
        registry: inputs.registry,
        source: basename(processedPath),
        records: processed.records,
        codeByLeaf: inputs.codeByLeaf,
      })
      throwBuildIssues(processedPath, built.issues)
      checkLostLabels({
        dataset: options.dataset,
        accounting: built.report.labels,
        allow: options.allowUnresolved ?? false,
        examples: built.report.unresolved.records,
      })
      const report = { ...built.report, inputs: { processed_sha256: processed.sha256, ...inputs.hashes } }
      await publishDirectory({
        target: output,
        replace: options.overwrite ?? false,
        build(staging) {
          writeRecordArray(join(staging, 'all.json'), built.records)
          writeFileSync(join(staging, 'resolution_report.json'), `${JSON.stringify(report, null, 2)}\n`)
        },
      })
      return built.report
    },
  )
}
