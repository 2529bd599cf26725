/**
 * @module release/audit: the prompt-identifiability audit (pure). Two resolved records whose normalised
 * field and table names are equal show the model the same prompt key, so they must share one target
 * (category, level), and lie in one split. Both checks cover every resolved record, whatever split is
 * audited (a conflict inside test corrupts the evaluation as one in train corrupts training); `split`
 * chooses which records and keys are counted as audited. Reports name no field, table or label in the
 * clear: keys and targets are hashes; the records of a conflict or of a key in two splits are listed by
 * id, split, position in the file and spreadsheet provenance, so a data owner can find the rows.
 */
import { hash } from 'node:crypto'
import { sortByKey } from '../canonical/sort-by-key.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import type { Provenance } from '../contracts/processed-record.js'
import { type GroupOptions, type PromptKeyGroup, PromptKeyGroups } from './prompt-key-groups.js'

const datasetAuditFormat = 'field-prompt-identifiability-v1'
const bundleAuditFormat = 'field-prompt-identifiability-bundle-v1'

const sha256 = (...parts: string[]) => hash('sha256', parts.join('\0'), 'hex')

/** A record of a conflict: where to find it (its 1-based position in the audited file, its source row). */
export interface AuditedRecord {
  id: string
  split: string | null
  record: number
  provenance: Provenance | null
}

export interface PromptConflict {
  prompt_key_sha256: string
  record_count: number
  record_id_sha256: string[]
  target_count: number
  target_sha256: string[]
  splits: string[]
  records: AuditedRecord[]
}

/** A prompt key shown in more than one split (with one target or several). */
export interface CrossSplitKey {
  prompt_key_sha256: string
  splits: string[]
  records: AuditedRecord[]
}

/** The counts both reports give, for one dataset or for the whole bundle. */
interface AuditCounts {
  /** Resolved records of the audited split; `prompt_keys` and `prompt_key_sha256` are their keys. */
  records_audited: number
  /** Resolved records of every split: conflicts and cross-split keys are looked for among these. */
  records_checked: number
  prompt_keys: number
  prompt_key_sha256: string
  conflict_keys: number
  conflicting_records: number
  /** Prompt keys shown in more than one split (identical prompts on both sides of a split): fails the audit. */
  cross_split_keys: number
}

export interface DatasetAuditReport extends AuditCounts {
  dataset: string
  format: typeof datasetAuditFormat
  status: 'passed' | 'failed'
  split: string
  classification_standard_sha256: string
  grading_standard_sha256: string
  conflicts: PromptConflict[]
  cross_split: CrossSplitKey[]
}

export interface BundleAuditReport extends AuditCounts {
  format: typeof bundleAuditFormat
  status: 'passed' | 'failed'
  split: string
  datasets: Record<string, DatasetAuditReport>
  standard_hashes: Record<string, { classification_standard_sha256: string; grading_standard_sha256: string }>
}

export interface AuditOptions extends GroupOptions {
  dataset: string
  records: readonly CanonicalRecord[]
  classificationSha256: string
  gradingSha256: string
  /** Key text → key hash, shared by audits of the same records against the same standards. */
  keyHashes?: Map<string, string>
  /** The records already grouped (built while they were made); `records` is then not read again. */
  groups?: PromptKeyGroups
}

function auditedRecords(group: PromptKeyGroup): AuditedRecord[] {
  const listed = group.records.map((record, index) => ({
    id: record.id,
    split: record.split ?? null,
    record: (group.positions[index] as number) + 1,
    provenance: record.provenance ?? null,
  }))
  return sortByKey(listed, (item) => item.id)
}

const splitsOf = (group: PromptKeyGroup) => [...new Set(group.records.map((record) => record.split ?? 'none'))].sort()

export function auditPromptConflicts(options: AuditOptions): DatasetAuditReport {
  const grouped = options.groups ?? PromptKeyGroups.of(options.records, options)
  grouped.check()
  const { audited, checked } = grouped
  const cache = options.keyHashes ?? new Map<string, string>()
  const hashed: { hash: string; group: PromptKeyGroup }[] = []
  for (const group of grouped.groups()) {
    // Only the keys of audited records, and those that fail the audit, need their hash.
    if (!group.audited && group.targets.length < 2 && !group.crossesSplits) continue
    let hashedKey = cache.get(group.key)
    if (hashedKey === undefined) {
      hashedKey = sha256(group.key, options.classificationSha256, options.gradingSha256)
      cache.set(group.key, hashedKey)
    }
    hashed.push({ hash: hashedKey, group })
  }
  const ordered = sortByKey(hashed, (item) => item.hash)
  const keys = ordered.filter((item) => item.group.audited)
  const conflicts: PromptConflict[] = []
  const crossSplit: CrossSplitKey[] = []
  for (const { hash: key, group } of ordered) {
    if (group.crossesSplits) crossSplit.push({ prompt_key_sha256: key, splits: splitsOf(group), records: auditedRecords(group) })
    if (group.targets.length < 2) continue
    const { ids, targets } = group
    conflicts.push({
      prompt_key_sha256: key,
      record_count: ids.length,
      record_id_sha256: ids.map((id) => sha256(id)).sort(),
      target_count: targets.length,
      target_sha256: targets.map((target) => sha256(target)).sort(),
      splits: splitsOf(group),
      records: auditedRecords(group),
    })
  }
  return {
    dataset: options.dataset,
    format: datasetAuditFormat,
    status: conflicts.length === 0 && crossSplit.length === 0 ? 'passed' : 'failed',
    split: options.split,
    classification_standard_sha256: options.classificationSha256,
    grading_standard_sha256: options.gradingSha256,
    records_audited: audited,
    records_checked: checked,
    prompt_keys: keys.length,
    prompt_key_sha256: sha256(...keys.map((item) => item.hash)),
    conflict_keys: conflicts.length,
    conflicting_records: conflicts.reduce((sum, conflict) => sum + conflict.record_count, 0),
    cross_split_keys: crossSplit.length,
    conflicts,
    cross_split: crossSplit,
  }
}

export function bundleAuditReports(reports: readonly DatasetAuditReport[], split: string): BundleAuditReport {
  const ordered = [...reports].sort((a, b) => (a.dataset < b.dataset ? -1 : 1))
  return {
    format: bundleAuditFormat,
    status: ordered.every((report) => report.status === 'passed') ? 'passed' : 'failed',
    split,
    datasets: Object.fromEntries(ordered.map((report) => [report.dataset, report])),
    standard_hashes: Object.fromEntries(
      ordered.map((report) => [
        report.dataset,
        {
          classification_standard_sha256: report.classification_standard_sha256,
          grading_standard_sha256: report.grading_standard_sha256,
        },
      ]),
    ),
    records_audited: ordered.reduce((sum, report) => sum + report.records_audited, 0),
    records_checked: ordered.reduce((sum, report) => sum + report.records_checked, 0),
    prompt_keys: ordered.reduce((sum, report) => sum + report.prompt_keys, 0),
    prompt_key_sha256: sha256(...ordered.map((report) => `${report.dataset}\0${report.prompt_key_sha256}`)),
    conflict_keys: ordered.reduce((sum, report) => sum + report.conflict_keys, 0),
    conflicting_records: ordered.reduce((sum, report) => sum + report.conflicting_records, 0),
    cross_split_keys: ordered.reduce((sum, report) => sum + report.cross_split_keys, 0),
  }
}

/** The gate: passed with zero conflict keys (and no prompt in two splits). */
export function auditPassed(report: { status: string; conflict_keys: number; cross_split_keys?: number }): boolean {
  return report.status === 'passed' && report.conflict_keys === 0 && (report.cross_split_keys ?? 0) === 0
}

/**
 * Ids of resolved records in a prompt-key group with more than one target (for quarantine). Records the
 * audit could not key (no level, no field name) are not grouped, so never quarantined: the audit refuses them.
 */
export function conflictingRecordIds(records: readonly CanonicalRecord[], levelField: string): Set<string> {
  return PromptKeyGroups.of(records, { split: 'all', levelField, source: 'canonical' }).conflictingIds()
}
