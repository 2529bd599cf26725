/**
 * @module release/planning: what the SFT and RL exports check before they write anything, in order: the
 * target is absent or empty, the dataset name, the formal-export rules, the task files, every canonical
 * record, and the label-gap gate. Both kinds then build their rows from the same plan.
 */
import { basename } from 'node:path'
import { isNonEmptyDirectory, outputExistsError } from '../../io/publish-directory.js'
import { checkFormalExport } from '../canonical/check-formal-export.js'
import { invalidRecordsError, loadCanonicalRecords } from '../canonical/parse-canonical-records.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import { labelGapError } from '../contracts/export-report-parts.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { planRecords, type RecordPlan } from './record-plan.js'
import { loadTaskFor, type TaskOptions } from './task-options.js'

export interface RecordExportOptions extends TaskOptions {
  canonical: string
  outputDir: string
  allowLabelGaps?: readonly string[]
  allowAnyLabelGap?: boolean
  formal?: boolean
  configFile?: string
  failedAudit?: string
}

export interface PreparedRecordExport {
  dataset: string
  loaded: LoadedTask
  canonicalSha256: string
  plan: RecordPlan
}

export function prepareRecordExport(options: RecordExportOptions): PreparedRecordExport {
  if (isNonEmptyDirectory(options.outputDir)) throw outputExistsError(options.outputDir)
  const dataset = checkDatasetName(options.dataset)
  checkFormalExport({
    dataset,
    ...(options.formal ? { formal: true } : {}),
    ...(options.configFile ? { configFile: options.configFile } : {}),
  })
  const loaded = loadTaskFor(options)
  const canonical = loadCanonicalRecords(options.canonical)
  const source = basename(options.canonical)
  const plan = planRecords({
    records: canonical.records,
    task: loaded.task,
    source,
    ...(options.allowLabelGaps ? { allowLabelGaps: options.allowLabelGaps } : {}),
    ...(options.allowAnyLabelGap ? { allowAnyLabelGap: true } : {}),
  })
  if (plan.issues.length > 0) throw invalidRecordsError(source, plan.issues)
  if (plan.gate.status === 'failed') throw labelGapError({ path: options.canonical, source, gate: plan.gate })
  return { dataset, loaded, canonicalSha256: canonical.sha256, plan }
}
