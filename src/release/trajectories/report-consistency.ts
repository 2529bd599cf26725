/**
 * @module release/trajectories: checks a release's `export_report.json` against what its files hold:
 * format, dataset, per split the row and class counts, tool calls, the source-id digest, and the SHA-256
 * of every Parquet file (a changed byte anywhere shows here even when the file still decodes).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sha256Hex } from '../../io/sha256.js'
import { splitNames } from '../contracts/canonical-record.js'
import { type ExportReportCore, exportReportSchema } from './export-report.js'
import type { TrajectoryClass } from './trajectory-class.js'

export interface ObservedSplit {
  rows: number
  classes: Record<TrajectoryClass, number>
  calls: number
  ids: string[]
  sha256: string
}

/** sha256 of source ids, sorted, one per line. */
export function sourceIdsDigest(ids: readonly string[]): string {
  return sha256Hex([...ids].sort().join('\n'))
}

export function readExportReport(dir: string, errors: string[]): ExportReportCore | undefined {
  const path = join(dir, 'export_report.json')
  if (!existsSync(path)) {
    errors.push('export_report.json is missing')
    return undefined
  }
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    errors.push(`export_report.json is not JSON: ${(error as Error).message}`)
    return undefined
  }
  const parsed = exportReportSchema.safeParse(value)
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 5))
      errors.push(`export_report.json ${issue.path.join('.') || '(root)'}: ${issue.message}`)
    return undefined
  }
  return parsed.data
}

export function reportConsistencyErrors(
  exported: ExportReportCore,
  observed: Readonly<Record<string, ObservedSplit>>,
  dataset: string,
): string[] {
  const errors: string[] = []
  if (exported.dataset !== dataset) errors.push(`export_report.json names dataset ${exported.dataset}, expected ${dataset}`)
  for (const split of splitNames) {
    const have = observed[split]
    const declared = exported.splits[split]
    if (!have || !declared) continue
    const file = `${split}.parquet`
    if (have.sha256 !== declared.parquet_sha256 || have.sha256 !== exported.release.artifacts_sha256[file])
      errors.push(
        `${file} sha256 ${have.sha256} does not match export_report.json (${exported.release.artifacts_sha256[file]}): the file changed after export`,
      )
    if (have.rows !== declared.rows) errors.push(`${file} holds ${have.rows} rows, export_report.json says ${declared.rows}`)
    for (const [name, count] of Object.entries(have.classes)) {
      const stated = declared.by_class[name as TrajectoryClass]
      if (stated !== count) errors.push(`${file} holds ${count} ${name} rows, export_report.json says ${stated}`)
    }
    if (have.calls !== declared.tool_calls)
      errors.push(`${file} holds ${have.calls} tool calls, export_report.json says ${declared.tool_calls}`)
    if (sourceIdsDigest(have.ids) !== declared.source_ids_sha256)
      errors.push(`${file} source ids do not match export_report.json's digest (rows were added, removed or moved)`)
  }
  return errors
}
