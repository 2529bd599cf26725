/**
 * @module release/mixtures: the releases a mixture is built from. `--input name=dir` names a dataset and
 * its published release; the release's `export_report.json` must say it passed, was validated, has no
 * label-gap waiver, belongs to that dataset, was built from the same task files and from the grading
 * standard the manifest pins, and every artifact must still hash to what the report recorded.
 */

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { carriedCode } from '../../core/errors/error-code.js'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256File, sha256Hex } from '../../io/sha256.js'
import { splitNames } from '../contracts/canonical-record.js'
import { checkDatasetName } from '../contracts/dataset-name.js'

export interface MixtureInputSpec {
  dataset: string
  directory: string
}

/** `name=dir` values → inputs sorted by dataset name; names checked, duplicates refused. */
export function parseMixtureInputs(values: readonly string[]): MixtureInputSpec[] {
  const inputs = new Map<string, string>()
  for (const value of values) {
    const separator = value.indexOf('=')
    if (separator <= 0 || separator === value.length - 1) {
      throw new InvalidInputError({
        code: 'invalid_option',
        path: '--input',
        message: `--input takes DATASET=DIR, got "${value}".`,
        issues: [{ code: 'invalid_option', path: '--input', message: value }],
      })
    }
    const dataset = checkDatasetName(value.slice(0, separator).trim(), '--input')
    if (inputs.has(dataset)) {
      throw new InvalidInputError({
        code: 'duplicate_input',
        path: '--input',
        message: `Dataset ${dataset} is given twice.`,
        issues: [{ code: 'duplicate_input', path: `--input ${dataset}`, message: 'given twice' }],
      })
    }
    inputs.set(dataset, value.slice(separator + 1))
  }
  if (inputs.size === 0)
    throw new InvalidInputError({
      code: 'missing_option',
      path: '--input',
      message: 'A mixture needs at least one --input.',
      issues: [],
    })
  return [...inputs.keys()].sort().map((dataset) => ({ dataset, directory: resolve(inputs.get(dataset) as string) }))
}

/** What a mixture needs to know about one input release, after its report was checked. */
export interface InputRelease {
  dataset: string
  directory: string
  format: string
  exportReportSha256: string
  parquetSha256: Record<string, string>
  gradingSha256: string
}

export interface InputExpectations {
  format: string
  /** The manifest's pinned grading hash and rubric for this dataset. */
  grading: { sha256: string; levels: readonly string[]; gtField: string }
  /** Hashes of the task files the mixture was given (a null task config means the default fields). */
  task: { registry: string; corpus: string; taskConfig: string | null }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function emptyList(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0)
}

/** Report problems of an input release (empty when it may be mixed). */
function reportIssues(report: Record<string, unknown>, spec: MixtureInputSpec, expect: InputExpectations): InputIssue[] {
  const issues: InputIssue[] = []
  const where = `${spec.dataset}:export_report.json`
  const add = (key: string, message: string) => issues.push({ code: 'mixture_input_invalid', path: `${where}:${key}`, message })
  if (report.format !== expect.format) add('format', `format is ${String(report.format)}, expected ${expect.format}`)
  if (report.dataset !== spec.dataset) add('dataset', `the release is for ${String(report.dataset)}, not ${spec.dataset}`)
  const release = report.release
  if (!isObject(release) || release.status !== 'passed' || release.published !== true)
    add('release', 'the input must be a passed, published release')
  if (!isObject(report.validation) || report.validation.valid !== true) add('validation', 'validation.valid must be true')
  const gate = report.label_gap_gate
  if (
    !isObject(gate) ||
    gate.status !== 'passed' ||
    !['blocking', 'blocking_levels', 'waived', 'waived_levels'].every((key) => emptyList(gate[key]))
  )
    add(
      'label_gap_gate',
      `the label-gap gate must have passed without waivers (it is ${String(isObject(gate) ? gate.status : gate)}): a mixture must train on every label it evaluates, so split the dataset again (\`release canonical split --overwrite\` keeps every label in train) and export the release again`,
    )
  const grading = isObject(report.grading) ? report.grading : {}
  if (JSON.stringify(grading.levels) !== JSON.stringify(expect.grading.levels) || grading.gt_field !== expect.grading.gtField)
    add(
      'grading',
      `levels/gt_field differ from the manifest's standard (${expect.grading.levels.join(', ')} / ${expect.grading.gtField})`,
    )
  const inputs = isObject(report.inputs) ? report.inputs : {}
  if (inputs.grading_sha256 !== expect.grading.sha256)
    add(
      'inputs.grading_sha256',
      `built from grading ${String(inputs.grading_sha256)}, but the manifest pins ${expect.grading.sha256}`,
    )
  if (inputs.registry_sha256 !== expect.task.registry) add('inputs.registry_sha256', 'built from another registry file')
  if (inputs.corpus_sha256 !== expect.task.corpus) add('inputs.corpus_sha256', 'built from another corpus file')
  if ((inputs.task_config_sha256 ?? null) !== expect.task.taskConfig)
    add('inputs.task_config_sha256', 'built from another task config')
  return issues
}

/** Checks one input release's report and artifact hashes; throws listing every problem. */
export function readInputRelease(spec: MixtureInputSpec, expect: InputExpectations): InputRelease {
  const reportPath = join(spec.directory, 'export_report.json')
  const file = readJsonFile(reportPath, { kind: 'release export report', strict: true })
  if (!isObject(file.value))
    throw new InvalidInputError({
      code: 'mixture_input_invalid',
      path: reportPath,
      message: `${reportPath} is not a JSON object.`,
      issues: [],
    })
  const report = file.value
  const issues = reportIssues(report, spec, expect)
  const artifacts = isObject(report.release) && isObject(report.release.artifacts_sha256) ? report.release.artifacts_sha256 : {}
  const parquetSha256: Record<string, string> = {}
  for (const split of splitNames) {
    const path = join(spec.directory, `${split}.parquet`)
    const where = `${spec.dataset}:${split}.parquet`
    if (!existsSync(path)) {
      issues.push({ code: 'mixture_input_invalid', path: where, message: 'missing' })
      continue
    }
    const digest = sha256File(path)
    parquetSha256[split] = digest
    if (artifacts[`${split}.parquet`] !== digest)
      issues.push({ code: 'artifact_hash_mismatch', path: where, message: `sha256 ${digest} differs from export_report.json` })
  }
  if (issues.length > 0) {
    throw new InvalidInputError({
      code: carriedCode(issues[0]?.code ?? 'mixture_input_invalid'),
      path: issues[0]?.path ?? reportPath,
      message: `Input release ${spec.dataset} (${spec.directory}) cannot be mixed: ${issues[0]?.message}${issues.length > 1 ? ` (+${issues.length - 1} more)` : ''}.`,
      issues,
    })
  }
  return {
    dataset: spec.dataset,
    directory: spec.directory,
    format: expect.format,
    exportReportSha256: sha256Hex(file.bytes),
    parquetSha256,
    gradingSha256: expect.grading.sha256,
  }
}
