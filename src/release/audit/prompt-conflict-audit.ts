/**
 * @module release/audit: the prompt-identifiability audit (pure). Two resolved records whose normalised
 * field and table names are equal show the model the same prompt key, so they must share one target
 * (category, level). Reports hold hashes and counts only: no field, label or record id in the clear.
 */
import { hash } from 'node:crypto'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { normalizeKeyText } from '../../envs/grading/text/python-text.js'
import { crossSplitKeyCount } from '../canonical/prompt-key.js'
import { sortByKey } from '../canonical/sort-by-key.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'

export const datasetAuditFormat = 'field-prompt-identifiability-v1'
export const bundleAuditFormat = 'field-prompt-identifiability-bundle-v1'

const sha256 = (...parts: string[]) => hash('sha256', parts.join('\0'), 'hex')

export interface PromptConflict {
  prompt_key_sha256: string
  record_count: number
  record_id_sha256: string[]
  target_count: number
  target_sha256: string[]
}

export interface DatasetAuditReport {
  dataset: string
  format: typeof datasetAuditFormat
  status: 'passed' | 'failed'
  split: string
  classification_standard_sha256: string
  grading_standard_sha256: string
  records_audited: number
  prompt_keys: number
  prompt_key_sha256: string
  conflict_keys: number
  conflicting_records: number
  /** Prompt keys shown in more than one split (identical prompts on both sides of a split): fails the audit. */
  cross_split_keys: number
  conflicts: PromptConflict[]
}

export interface BundleAuditReport {
  format: typeof bundleAuditFormat
  status: 'passed' | 'failed'
  split: string
  datasets: Record<string, DatasetAuditReport>
  standard_hashes: Record<string, { classification_standard_sha256: string; grading_standard_sha256: string }>
  records_audited: number
  prompt_keys: number
  prompt_key_sha256: string
  conflict_keys: number
  conflicting_records: number
  cross_split_keys: number
}

export interface GroupOptions {
  /** A split name, or "all". */
  split: string
  levelField: string
  /** For issue paths. */
  source: string
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
  /** Prompt keys in more than one split, when known (with `groups`); else counted over `records`. */
  crossSplitKeys?: number
}

/** One prompt key's records: their targets (`category\0level`) and ids. */
export interface PromptKeyGroup {
  key: string
  targets: string[]
  ids: string[]
}

const countOf = (value: string | Set<string> | string[]) =>
  typeof value === 'string' ? 1 : 'size' in value ? value.size : value.length
const listOf = (value: string | Set<string> | string[]) => (typeof value === 'string' ? [value] : [...value])

/**
 * Audited records grouped by prompt-key text, one record at a time (so the grouping can run while the
 * records are made). A resolved record that lacks what the key needs becomes an issue, thrown by `check`.
 * Nearly every key has one record: its target and id are then kept as plain strings in two maps, so a
 * key costs no object of its own (the grouping of a large release stays cheap to build and to collect).
 */
export class PromptKeyGroups {
  readonly issues: InputIssue[] = []
  audited = 0
  /** Prompt-key text → its records' targets (a lone target as a string). */
  private readonly targets = new Map<string, string | Set<string>>()
  /** Prompt-key text → its records' ids (a lone id as a string). */
  private readonly ids = new Map<string, string | string[]>()
  /** category id → level → target text, so equal targets are one string. */
  private readonly targetTexts = new Map<string, Map<string, string>>()
  /** Raw table name → normalised: a table's name repeats for each of its fields (field names mostly do not). */
  private readonly tables = new Map<string, string>()

  constructor(private readonly options: GroupOptions) {}

  private targetText(category: string, level: string): string {
    let byLevel = this.targetTexts.get(category)
    if (!byLevel) {
      byLevel = new Map()
      this.targetTexts.set(category, byLevel)
    }
    let text = byLevel.get(level)
    if (text === undefined) {
      text = `${category}\0${level}`
      byLevel.set(level, text)
    }
    return text
  }

  private normalizedTable(name: string): string {
    let text = this.tables.get(name)
    if (text === undefined) {
      text = normalizeKeyText(name)
      this.tables.set(name, text)
    }
    return text
  }

  /** `index`: the record's 0-based position in its file, for issue paths. */
  add(record: CanonicalRecord, index: number): void {
    const { options } = this
    if (record.resolution_status !== 'resolved') return
    if (options.split !== 'all' && record.split !== options.split) return
    const level = (record as Record<string, unknown>)[options.levelField]
    if (typeof level !== 'string' || !level.trim()) {
      this.issues.push({
        code: 'missing_level',
        path: `${options.source}:record ${index + 1}:${options.levelField}`,
        message: `a resolved record needs ${options.levelField}`,
      })
      return
    }
    const field = normalizeKeyText(record.metadata.field_name)
    if (field === '') {
      this.issues.push({
        code: 'empty_field_name',
        path: `${options.source}:record ${index + 1}:metadata.field_name`,
        message: 'field_name normalises to nothing',
      })
      return
    }
    const key = `${field}\u001f${this.normalizedTable(record.metadata.table_name)}`
    const target = this.targetText(record.target?.category_id ?? '', level.trim())
    const targets = this.targets.get(key)
    if (targets === undefined) {
      this.targets.set(key, target)
      this.ids.set(key, record.id)
    } else {
      if (typeof targets !== 'string') targets.add(target)
      else if (targets !== target) this.targets.set(key, new Set([targets, target]))
      const ids = this.ids.get(key) as string | string[]
      if (typeof ids === 'string') this.ids.set(key, [ids, record.id])
      else ids.push(record.id)
    }
    this.audited++
  }

  static of(records: readonly CanonicalRecord[], options: GroupOptions): PromptKeyGroups {
    const groups = new PromptKeyGroups(options)
    records.forEach((record, index) => {
      groups.add(record, index)
    })
    return groups
  }

  /** How many prompt keys the audited records show. */
  get size(): number {
    return this.targets.size
  }

  /** Prompt-key texts in the order first seen. */
  keys(): IterableIterator<string> {
    return this.targets.keys()
  }

  targetCount(key: string): number {
    const targets = this.targets.get(key)
    return targets === undefined ? 0 : countOf(targets)
  }

  group(key: string): PromptKeyGroup {
    return { key, targets: listOf(this.targets.get(key) ?? []), ids: listOf(this.ids.get(key) ?? []) }
  }

  /** Throws when an audited record lacked what its key needs. */
  check(): void {
    const { issues } = this
    if (issues.length === 0) return
    throw new InvalidInputError({
      code: issues[0]?.code ?? 'invalid_record',
      message: `${this.options.source} cannot be audited: ${issues[0]?.path}: ${issues[0]?.message}.`,
      issues: issues.slice(0, 500),
    })
  }

  /**
   * The grouping once every record of a conflicting group is taken out, which is what quarantine does:
   * each remaining group keeps its one target and its records, so auditing the quarantined (and then
   * split) records groups them exactly so. Lets a line audit its final records without grouping them again.
   */
  withoutConflicts(): PromptKeyGroups {
    const kept = new PromptKeyGroups(this.options)
    kept.issues.push(...this.issues)
    for (const [key, targets] of this.targets) {
      if (countOf(targets) > 1) continue
      const ids = this.ids.get(key) as string | string[]
      kept.targets.set(key, targets)
      kept.ids.set(key, ids)
      kept.audited += countOf(ids)
    }
    return kept
  }

  /** Ids of the records in a group with more than one target. */
  conflictingIds(): Set<string> {
    const ids = new Set<string>()
    for (const [key, targets] of this.targets)
      if (countOf(targets) > 1) for (const id of listOf(this.ids.get(key) ?? [])) ids.add(id)
    return ids
  }
}

export function auditPromptConflicts(options: AuditOptions): DatasetAuditReport {
  const grouped = options.groups ?? PromptKeyGroups.of(options.records, options)
  grouped.check()
  const { audited } = grouped
  const cache = options.keyHashes ?? new Map<string, string>()
  const hashed: { key: string; text: string }[] = []
  for (const text of grouped.keys()) {
    let key = cache.get(text)
    if (key === undefined) {
      key = sha256(text, options.classificationSha256, options.gradingSha256)
      cache.set(text, key)
    }
    hashed.push({ key, text })
  }
  const ordered = sortByKey(hashed, (item) => item.key)
  const conflicts: PromptConflict[] = []
  for (const { key, text } of ordered) {
    if (grouped.targetCount(text) < 2) continue
    const { ids, targets } = grouped.group(text)
    conflicts.push({
      prompt_key_sha256: key,
      record_count: ids.length,
      record_id_sha256: ids.map((id) => sha256(id)).sort(),
      target_count: targets.length,
      target_sha256: targets.map((target) => sha256(target)).sort(),
    })
  }
  const crossSplit = options.crossSplitKeys ?? (options.groups ? 0 : crossSplitKeyCount(options.records))
  return {
    dataset: options.dataset,
    format: datasetAuditFormat,
    status: conflicts.length === 0 && crossSplit === 0 ? 'passed' : 'failed',
    split: options.split,
    classification_standard_sha256: options.classificationSha256,
    grading_standard_sha256: options.gradingSha256,
    records_audited: audited,
    prompt_keys: ordered.length,
    prompt_key_sha256: sha256(...ordered.map((item) => item.key)),
    conflict_keys: conflicts.length,
    conflicting_records: conflicts.reduce((sum, conflict) => sum + conflict.record_count, 0),
    cross_split_keys: crossSplit,
    conflicts,
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
