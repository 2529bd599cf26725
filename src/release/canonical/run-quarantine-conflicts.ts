/**
 * @module release/canonical: `releaseops release canonical quarantine-conflicts`: the remedy when the
 * prompt audit fails. Every resolved record in a prompt-key group with more than one target becomes
 * `prompt_conflict` (its target kept as `quarantined_target`), since nothing tells which label is right.
 * Runs before `split`, so splits never hold quarantined records; run after a split (the runbook audits
 * the split records), it also takes the split back, so `canonical split` runs again without a rebuild.
 */
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { withFailedAudit } from '../../io/failed-audit.js'
import { publishDirectory } from '../../io/publish-directory.js'
import { writeRecordArray } from '../../io/record-array-file.js'
import { conflictingRecordIds } from '../audit/prompt-conflict-audit.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import { loadCanonicalRecords } from './parse-canonical-records.js'

export interface QuarantineReport {
  format: 'prompt-conflict-quarantine-v1'
  dataset: string
  level_field: string
  quarantined_records: number
  record_ids: string[]
  /** The dataset was split: every split was cleared (and split_report.json removed) for a fresh split. */
  unsplit?: boolean
}

/** Marks every resolved record of a conflicting prompt-key group as `prompt_conflict` (pure). */
export function quarantineConflicts(options: {
  records: readonly CanonicalRecord[]
  dataset: string
  levelField: string
  /** The conflicting ids, when the caller has already grouped the records. */
  conflicting?: ReadonlySet<string>
}): {
  records: CanonicalRecord[]
  report: QuarantineReport
} {
  const ids = options.conflicting ?? conflictingRecordIds(options.records, options.levelField)
  const records = options.records.map((record): CanonicalRecord => {
    if (!ids.has(record.id)) return record
    // Keys in the canonical schema's order (as a stage reading the file back writes them): the reason right
    // after the status, the target moved to the end as `quarantined_target`.
    const quarantined: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(record)) {
      if (key === 'target' || key === 'resolution_reason') continue
      if (key !== 'resolution_status') {
        quarantined[key] = value
        continue
      }
      quarantined.resolution_status = 'prompt_conflict'
      quarantined.resolution_reason = 'same field and table name as a record with a different category or level'
    }
    quarantined.quarantined_target = record.target
    return quarantined as CanonicalRecord
  })
  return {
    records,
    report: {
      format: 'prompt-conflict-quarantine-v1',
      dataset: options.dataset,
      level_field: options.levelField,
      quarantined_records: ids.size,
      record_ids: [...ids].sort(),
    },
  }
}

export async function runQuarantineConflicts(options: {
  canonicalDir: string
  dataset: string
  levelField?: string
  failedAudit?: string
}): Promise<QuarantineReport> {
  // Checked first: the name is part of every output path, including the failed audit's.
  checkDatasetName(options.dataset)
  const directory = join(options.canonicalDir, options.dataset)
  return withFailedAudit(
    {
      stage: 'canonical quarantine-conflicts',
      output: directory,
      ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}),
    },
    async () => {
      const levelField = options.levelField ?? 'data_level'
      const wasSplit = existsSync(join(directory, 'split_report.json'))
      const loaded = loadCanonicalRecords(join(directory, 'all.json')).records
      // A split is taken back: the records are as the build left them, and the next split starts afresh.
      const records = wasSplit
        ? loaded.map((record) => Object.assign({}, record, { split: null, split_exclusion_reason: null }))
        : loaded
      const quarantined = quarantineConflicts({ records, dataset: options.dataset, levelField })
      const updated = quarantined.records
      const report: QuarantineReport = wasSplit ? { ...quarantined.report, unsplit: true } : quarantined.report
      await publishDirectory({
        target: directory,
        replace: true,
        build(staging) {
          for (const name of readdirSync(directory)) {
            if (name !== 'all.json' && name !== 'quarantine_report.json' && name !== 'split_report.json')
              copyFileSync(join(directory, name), join(staging, name))
          }
          writeRecordArray(join(staging, 'all.json'), updated)
          writeFileSync(join(staging, 'quarantine_report.json'), `${JSON.stringify(report, null, 2)}\n`)
        },
      })
      return report
    },
  )
}
