/**
 * @module release/mixtures: validates a published (or staged) mixture release: its report against the
 * family, the task files and the grading manifest; every row against its dataset's task (the family's
 * row check); mixture ids (pattern, dataset, uniqueness, one episode's rows together); the deterministic
 * order; the per-dataset counts against the sampling policy; no source in two splits; artifact hashes;
 * and, when the input releases are given, the lineage hashes the report recorded.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { sha256File } from '../../io/sha256.js'
import { splitNames } from '../contracts/canonical-record.js'
import { readParquetRows } from '../parquet/parquet-rows.js'
import type { ParquetField } from '../parquet/parquet-shape.js'
import type { MixtureInputSpec } from './mixture-inputs.js'
import { mixtureHash, mixtureIdPattern, mixtureTargets, type SamplingPolicy, samplingPolicies } from './mixture-plan.js'
import { type MixtureFamily, type MixtureValidationReport, mixtureReleaseFormat } from './mixture-report.js'
import type { MixtureTasks } from './mixture-tasks.js'

/** The issue of a row whose dataset the grading manifest does not name. */
export function unknownDatasetIssue(dataset: string): InputIssue {
  return { code: 'mixture_unknown_dataset', path: 'dataset', message: `dataset ${dataset} is not in the grading manifest` }
}

export interface MixtureRowValidator {
  family: MixtureFamily
  columns: ParquetField[]
  /** Rows one episode contributes (the SFT family keeps stage pairs). */
  stages: readonly string[]
  key(row: Record<string, unknown>): { id: string; stage: string; dataset: string } | null
  check(row: Record<string, unknown>, dataset: string): InputIssue[]
  trajectoryFormat?: string
  /** A family whose rows need another Parquet layout than `columns` reads and writes them itself. */
  io?: {
    write(path: string, rows: readonly Record<string, unknown>[]): string
    read(path: string): Promise<{ rows: Record<string, unknown>[]; sha256: string }>
  }
}

const maxListedErrors = 50
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function reportLevelErrors(report: Record<string, unknown>, validator: MixtureRowValidator, tasks: MixtureTasks): string[] {
  const errors: string[] = []
  const datasets = Object.keys(tasks.byDataset).sort()
  if (report.format !== mixtureReleaseFormat) errors.push(`format is ${String(report.format)}, not ${mixtureReleaseFormat}`)
  if (report.family !== validator.family) errors.push(`family is ${String(report.family)}, not ${validator.family}`)
  if (validator.trajectoryFormat !== undefined && report.trajectory_format !== validator.trajectoryFormat)
    errors.push(`trajectory_format must be ${validator.trajectoryFormat}`)
  if (JSON.stringify(report.datasets) !== JSON.stringify(datasets))
    errors.push(`datasets are ${JSON.stringify(report.datasets)}, the grading manifest given covers ${JSON.stringify(datasets)}`)
  const release = report.release
  if (!isObject(release) || release.status !== 'passed' || release.published !== true)
    errors.push('release must be passed and published')
  const gate = report.label_gap_gate
  if (!isObject(gate) || gate.status !== 'passed') errors.push('label_gap_gate must be passed')
  const manifest = isObject(report.grading_manifest) ? report.grading_manifest : {}
  if (manifest.sha256 !== tasks.manifest.sha256) errors.push('grading manifest sha256 differs from the manifest given')
  const gradings = isObject(manifest.datasets) ? manifest.datasets : {}
  for (const dataset of datasets) {
    const recorded = isObject(gradings[dataset]) ? gradings[dataset] : {}
    if (recorded.sha256 !== tasks.manifest.datasets[dataset]?.sha256)
      errors.push(`${dataset} grading standard sha256 differs from the manifest's`)
  }
  const task = isObject(report.task) ? report.task : {}
  for (const key of ['registry_sha256', 'corpus_sha256', 'task_config_sha256'] as const) {
    if ((task[key] ?? null) !== tasks.task[key]) errors.push(`task.${key} differs from the task files given`)
  }
  const sampling = isObject(report.sampling) ? report.sampling : {}
  if (!samplingPolicies.includes(sampling.policy as SamplingPolicy))
    errors.push(`sampling.policy ${String(sampling.policy)} is unknown`)
  return errors
}

function lineageErrors(report: Record<string, unknown>, inputs: readonly MixtureInputSpec[]): string[] {
  const errors: string[] = []
  const lineage = isObject(report.inputs) ? report.inputs : {}
  for (const input of inputs) {
    const recorded = isObject(lineage[input.dataset]) ? (lineage[input.dataset] as Record<string, unknown>) : undefined
    if (!recorded) {
      errors.push(`${input.dataset}: no input lineage in the report`)
      continue
    }
    const reportPath = join(input.directory, 'export_report.json')
    if (!existsSync(reportPath) || sha256File(reportPath) !== recorded.export_report_sha256)
      errors.push(`${input.dataset}: export_report.json differs from the one the mixture was built from`)
    const hashes = isObject(recorded.parquet_sha256) ? recorded.parquet_sha256 : {}
    for (const split of splitNames) {
      const path = join(input.directory, `${split}.parquet`)
      if (!existsSync(path) || sha256File(path) !== hashes[split])
        errors.push(`${input.dataset}: ${split}.parquet differs from the mixed input`)
    }
  }
  return errors
}

interface SplitScan {
  episodes: Map<string, { dataset: string; stages: string[] }>
  bases: Set<string>
}

function scanRows(
  rows: readonly Record<string, unknown>[],
  split: string,
  validator: MixtureRowValidator,
  fail: (message: string) => void,
): SplitScan {
  const scan: SplitScan = { episodes: new Map(), bases: new Set() }
  let previous = ''
  rows.forEach((row, index) => {
    const key = validator.key(row)
    if (!key) {
      fail(`row ${index}: no readable mixture id, stage and dataset`)
      return
    }
    const match = mixtureIdPattern.exec(key.id)
    if (!match || match[1] !== key.dataset)
      fail(`row ${index}: source id ${JSON.stringify(key.id)} is not a mix:${key.dataset}:<sha256[:20]>:<cycle> id`)
    for (const issue of validator.check(row, key.dataset)) fail(`row ${index}: ${issue.message}`)
    const order = mixtureHash(split, key.id, key.stage)
    if (order < previous) fail(`row ${index}: rows are not in the mixture order sha256(split, id, stage)`)
    previous = order
    const episode = scan.episodes.get(key.id) ?? { dataset: key.dataset, stages: [] }
    episode.stages.push(key.stage)
    scan.episodes.set(key.id, episode)
    if (match) scan.bases.add(`${match[1]}:${match[2]}`)
  })
  const expected = [...validator.stages].sort().join(',')
  for (const [id, episode] of scan.episodes) {
    if (episode.stages.slice().sort().join(',') !== expected)
      fail(`episode ${id} has rows ${episode.stages.join(', ')}, expected ${expected}`)
  }
  return scan
}

function countErrors(split: string, scan: SplitScan, details: Record<string, unknown>, policy: SamplingPolicy): string[] {
  const errors: string[] = []
  const actual: Record<string, number> = {}
  for (const episode of scan.episodes.values()) actual[episode.dataset] = (actual[episode.dataset] ?? 0) + 1
  const sourceCounts = isObject(details.source_counts) ? details.source_counts : {}
  const inputCounts = isObject(details.input_source_counts) ? (details.input_source_counts as Record<string, number>) : {}
  const names = new Set([...Object.keys(actual), ...Object.keys(sourceCounts)])
  for (const name of names) {
    if ((actual[name] ?? 0) !== sourceCounts[name])
      errors.push(`${split}: ${name} has ${actual[name] ?? 0} episodes, the report says ${String(sourceCounts[name])}`)
  }
  const expected = mixtureTargets({ counts: inputCounts, policy, split })
  if (
    JSON.stringify(expected) !==
    JSON.stringify(Object.fromEntries(Object.keys(expected).map((name) => [name, sourceCounts[name]])))
  )
    errors.push(`${split}: source counts do not follow the ${policy} policy over the input counts`)
  return errors
}

/** Validates a mixture release directory (the report must be there: the build writes it before validating). */
export async function validateMixtureRelease(options: {
  directory: string
  validator: MixtureRowValidator
  tasks: MixtureTasks
  inputs?: readonly MixtureInputSpec[]
}): Promise<MixtureValidationReport> {
  const { validator, tasks } = options
  const datasets = Object.keys(tasks.byDataset).sort()
  const result: MixtureValidationReport = {
    format: `releaseops-verl-mixture-validation-v1`,
    valid: true,
    family: validator.family,
    datasets,
    splits: {},
    cross_split_errors: [],
    report_errors: [],
    lineage_errors: [],
  }
  const reportPath = join(options.directory, 'export_report.json')
  let report: Record<string, unknown> = {}
  if (!existsSync(reportPath)) result.report_errors.push('export_report.json is missing')
  else {
    try {
      report = JSON.parse(readFileSync(reportPath, 'utf8'))
      result.report_errors.push(...reportLevelErrors(report, validator, tasks))
    } catch (error) {
      result.report_errors.push(`export_report.json is not valid JSON: ${(error as Error).message}`)
    }
  }
  const splitReports = isObject(report.splits) ? report.splits : {}
  const artifacts = isObject(report.release) && isObject(report.release.artifacts_sha256) ? report.release.artifacts_sha256 : {}
  const policy = (isObject(report.sampling) ? report.sampling.policy : 'passthrough') as SamplingPolicy
  const basesBySplit = new Map<string, Set<string>>()
  for (const split of splitNames) {
    const details = { rows: 0, error_count: 0, errors: [] as string[] }
    result.splits[split] = details
    const fail = (message: string) => {
      details.error_count++
      if (details.errors.length < maxListedErrors) details.errors.push(message)
    }
    const path = join(options.directory, `${split}.parquet`)
    if (!existsSync(path)) {
      fail(`missing ${split}.parquet`)
      continue
    }
    const splitReport = isObject(splitReports[split]) ? (splitReports[split] as Record<string, unknown>) : {}
    try {
      const file = validator.io ? await validator.io.read(path) : await readParquetRows(path, validator.columns)
      if (file.sha256 !== splitReport.parquet_sha256 || file.sha256 !== artifacts[`${split}.parquet`])
        fail(`${split}.parquet sha256 ${file.sha256} differs from export_report.json`)
      details.rows = file.rows.length
      if (file.rows.length === 0) fail('a split must hold at least one row')
      if (splitReport.rows !== file.rows.length)
        fail(`the report says ${String(splitReport.rows)} rows, the file holds ${file.rows.length}`)
      const scan = scanRows(file.rows, split, validator, fail)
      for (const error of countErrors(split, scan, splitReport, policy)) fail(error)
      basesBySplit.set(split, scan.bases)
    } catch (error) {
      fail(`cannot read ${split}.parquet: ${(error as Error).message}`)
    }
  }
  for (const [index, left] of splitNames.entries()) {
    for (const right of splitNames.slice(index + 1)) {
      const overlap = [...(basesBySplit.get(left) ?? [])].filter((base) => basesBySplit.get(right)?.has(base))
      if (overlap.length > 0)
        result.cross_split_errors.push(`sources in both ${left} and ${right}: ${overlap.slice(0, 5).join(', ')}`)
    }
  }
  if (options.inputs) result.lineage_errors.push(...lineageErrors(report, options.inputs))
  result.valid =
    Object.values(result.splits).every((split) => split.error_count === 0) &&
    result.cross_split_errors.length === 0 &&
    result.report_errors.length === 0 &&
    result.lineage_errors.length === 0
  return result
}
