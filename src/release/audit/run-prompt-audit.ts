/**
 * @module release/audit: `releaseops release audit prompt-conflicts`: audits one canonical dataset, or a
 * bundle of `DATASET=PATH` inputs, against the exact bytes of its classification and grading standards,
 * and writes the report (keys and targets as hashes; the records of a failure by id and source row). The
 * caller exits non-zero unless it passed with zero conflict keys and no key in two splits.
 */

import { writeFileSync } from 'node:fs'
import { parseGradingConfig } from '../../envs/grading/assets/grading-config.js'
import { writeFileAtomic } from '../../io/atomic-file.js'
import { withFailedAudit } from '../../io/failed-audit.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256Hex } from '../../io/sha256.js'
import { invalidOption } from '../canonical/invalid-option.js'
import { loadDatasetsFile } from '../canonical/load-datasets-file.js'
import { loadCanonicalRecords } from '../canonical/parse-canonical-records.js'
import { parseClassificationStandard } from '../contracts/classification-standard.js'
import { checkDatasetName, checkFormalDataset } from '../contracts/dataset-name.js'
import {
  auditPassed,
  auditPromptConflicts,
  type BundleAuditReport,
  bundleAuditReports,
  type DatasetAuditReport,
} from './prompt-conflict-audit.js'

export interface RunPromptAuditOptions {
  /** `DATASET=PATH` entries in bundle mode, one plain path otherwise. */
  canonical: readonly string[]
  classificationStandard: readonly string[]
  gradingStandard: readonly string[]
  bundle?: boolean
  /** The dataset name of a single (non-bundle) audit. */
  dataset?: string
  split?: string
  levelField?: string
  report: string
  overwrite?: boolean
  formal?: boolean
  configFile?: string
  failedAudit?: string
}

/** `DATASET=PATH` entries → map; every dataset once. */
function named(values: readonly string[], flag: string): Map<string, string> {
  const result = new Map<string, string>()
  for (const value of values) {
    const separator = value.indexOf('=')
    if (separator <= 0) throw invalidOption(flag, `${flag} entries must be DATASET=PATH in bundle mode, got "${value}"`)
    const name = checkDatasetName(value.slice(0, separator), flag)
    if (result.has(name)) throw invalidOption(flag, `${flag} names dataset "${name}" twice`)
    result.set(name, value.slice(separator + 1))
  }
  return result
}

function standardHashes(classificationPath: string, gradingPath: string): { classification: string; grading: string } {
  const classification = readJsonFile(classificationPath, { kind: 'classification standard' })
  parseClassificationStandard(classification.value, classificationPath)
  const grading = readJsonFile(gradingPath, { kind: 'grading standard' })
  parseGradingConfig(grading.value, gradingPath)
  return { classification: sha256Hex(classification.bytes), grading: sha256Hex(grading.bytes) }
}

export interface AuditInput {
  dataset: string
  canonical: string
  classification: string
  grading: string
}

/** Bundle mode: one input per dataset, sorted by name; each flag must name exactly the datasets of `--canonical`. */
export function bundleInputs(
  options: Pick<RunPromptAuditOptions, 'canonical' | 'classificationStandard' | 'gradingStandard'>,
): AuditInput[] {
  const canonical = named(options.canonical, '--canonical')
  const classification = named(options.classificationStandard, '--classification-standard')
  const grading = named(options.gradingStandard, '--grading-standard')
  const names = [...canonical.keys()].sort()
  for (const [flag, map] of [
    ['--classification-standard', classification],
    ['--grading-standard', grading],
  ] as const) {
    const other = [...map.keys()].sort()
    if (other.join('\0') !== names.join('\0'))
      throw invalidOption(
        flag,
        `${flag} must name exactly the datasets of --canonical (${names.join(', ')}), got ${other.join(', ')}`,
      )
  }
  if (names.length === 0) throw invalidOption('--canonical', 'a bundle needs at least one --canonical DATASET=PATH')
  return names.map((name) => ({
    dataset: name,
    canonical: canonical.get(name) as string,
    classification: classification.get(name) as string,
    grading: grading.get(name) as string,
  }))
}

/** A single audit: exactly one path of each kind, under `--dataset` (default `dataset`). */
export function singleInput(
  options: Pick<RunPromptAuditOptions, 'canonical' | 'classificationStandard' | 'gradingStandard' | 'dataset'>,
): AuditInput {
  if (options.canonical.length !== 1 || options.classificationStandard.length !== 1 || options.gradingStandard.length !== 1)
    throw invalidOption(
      '--canonical',
      'a single audit takes one --canonical, one --classification-standard and one --grading-standard (use --bundle for several)',
    )
  return {
    dataset: checkDatasetName(options.dataset ?? 'dataset'),
    canonical: options.canonical[0] as string,
    classification: options.classificationStandard[0] as string,
    grading: options.gradingStandard[0] as string,
  }
}

/** `--formal`: every dataset audited must be on the config file's formal allowlist. */
function checkFormalInputs(options: RunPromptAuditOptions, inputs: readonly AuditInput[]): void {
  if (!options.formal) return
  if (!options.configFile) throw invalidOption('--config-file', '--formal needs --config-file (its formal_datasets allowlist).')
  checkFormalDataset({
    names: inputs.map((input) => input.dataset),
    formal: loadDatasetsFile(options.configFile).formalDatasets,
    source: options.configFile,
  })
}

function auditInput(input: AuditInput, split: string, levelField: string): DatasetAuditReport {
  const hashes = standardHashes(input.classification, input.grading)
  const { records } = loadCanonicalRecords(input.canonical)
  return auditPromptConflicts({
    dataset: input.dataset,
    records,
    classificationSha256: hashes.classification,
    gradingSha256: hashes.grading,
    split,
    levelField,
    source: input.canonical,
  })
}

export async function runPromptAudit(
  options: RunPromptAuditOptions,
): Promise<{ report: DatasetAuditReport | BundleAuditReport; passed: boolean }> {
  return withFailedAudit(
    {
      stage: 'audit prompt-conflicts',
      output: options.report,
      ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}),
    },
    async () => {
      const split = options.split ?? 'all'
      const levelField = options.levelField ?? 'data_level'
      const inputs = options.bundle ? bundleInputs(options) : [singleInput(options)]
      checkFormalInputs(options, inputs)
      const reports = inputs.map((input) => auditInput(input, split, levelField))
      const report = options.bundle ? bundleAuditReports(reports, split) : (reports[0] as DatasetAuditReport)
      writeFileAtomic({
        path: options.report,
        overwrite: options.overwrite ?? false,
        write: (temporary) => writeFileSync(temporary, `${stableJson(report)}\n`),
      })
      return { report, passed: auditPassed(report) }
    },
  )
}

/** `json.dumps(report, indent=2, sort_keys=True)` for the plain values a report holds. */
export function stableJson(value: unknown): string {
  const sort = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(sort)
      : item && typeof item === 'object'
        ? Object.fromEntries(
            Object.keys(item)
              .sort()
              .map((key) => [key, sort((item as Record<string, unknown>)[key])]),
          )
        : item
  return JSON.stringify(sort(value), null, 2)
}
