/**
 * @module release/planning: canonical records → the plan every record-based release builds its rows from
 * (pure): the trainable records of each split in id order, their grading level, and the label-gap gate.
 * Labels come only from `target.category_id` and the grading field. The SFT, RL and trajectory exports
 * all start from this plan.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { sortByKey } from '../canonical/sort-by-key.js'
import { type CanonicalRecord, type SplitName, splitNames } from '../contracts/canonical-record.js'

/** What one planned record contributes to a release's rows. */
export interface RecordRowInput {
  id: string
  metadata: Record<string, string>
  groundTruth: string
  level: string
}

export interface RecordPlanEntry {
  record: CanonicalRecord
  level: string
}

export interface LabelGapGate {
  status: 'passed' | 'waived' | 'failed'
  blocking: { label: string; split: string }[]
  waived: { label: string; split: string }[]
  blocking_levels: { label: string; split: string }[]
  waived_levels: { label: string; split: string }[]
}

export interface RecordPlan {
  splits: Record<SplitName, RecordPlanEntry[]>
  skippedNoLevel: Record<SplitName, number>
  canonicalResolved: number
  gate: LabelGapGate
  issues: InputIssue[]
}

function sortEntries(entries: RecordPlanEntry[]): RecordPlanEntry[] {
  return sortByKey(entries, (entry) => entry.record.id)
}

/** Checks every record against the task and groups the trainable ones by split, in id order. */
export function planRecords(options: {
  records: readonly CanonicalRecord[]
  task: GradingTask
  source: string
  allowLabelGaps?: readonly string[]
  allowAnyLabelGap?: boolean
}): RecordPlan {
  const { task } = options
  const names = new Map(task.registry.categories.map((category) => [category.category_id, category.name]))
  const gtField = task.grading.gt_field
  const issues: InputIssue[] = []
  const splits: Record<SplitName, RecordPlanEntry[]> = { train: [], val: [], test: [] }
  const skippedNoLevel: Record<SplitName, number> = { train: 0, val: 0, test: 0 }
  let canonicalResolved = 0
  options.records.forEach((record, index) => {
    const where = `${options.source}:record ${index + 1}${record.provenance ? ` (${record.provenance.source_file}:${record.provenance.sheet}:row ${record.provenance.row})` : ''}`
    if (record.resolution_status !== 'resolved') {
      if (record.split !== null)
        issues.push({
          code: 'split_contract',
          path: `${where}:split`,
          message: `a ${record.resolution_status} record carries split "${record.split}"`,
        })
      return
    }
    canonicalResolved++
    const target = record.target
    const name = target ? names.get(target.category_id) : undefined
    if (!target || name === undefined) {
      issues.push({
        code: 'unknown_category',
        path: `${where}:target.category_id`,
        message: `target ${target?.category_id} is not in the leaf registry`,
      })
      return
    }
    if (target.leaf_name !== name) {
      issues.push({
        code: 'leaf_name_mismatch',
        path: `${where}:target.leaf_name`,
        message: `"${target.leaf_name}" is not the registry name "${name}" of ${target.category_id}`,
      })
      return
    }
    if (record.split === null) {
      issues.push({
        code: 'missing_split',
        path: `${where}:split`,
        message: 'a resolved record has no split; run `release canonical split` first',
      })
      return
    }
    const rawLevel = (record as Record<string, unknown>)[gtField]
    const level = typeof rawLevel === 'string' ? rawLevel.trim() : ''
    if (!level) {
      skippedNoLevel[record.split]++
      return
    }
    if (!task.grading.levels.includes(level)) {
      issues.push({
        code: 'unknown_level',
        path: `${where}:${gtField}`,
        message: `level "${level}" is not one of ${task.grading.levels.join(', ')}`,
      })
      return
    }
    splits[record.split].push({ record, level })
  })
  for (const split of splitNames) {
    splits[split] = sortEntries(splits[split])
    if (splits[split].length === 0 && issues.length === 0) {
      issues.push({ code: 'empty_split', path: `${options.source}:split=${split}`, message: `no trainable record in ${split}` })
    }
  }
  return { splits, skippedNoLevel, canonicalResolved, gate: labelGapGate(splits, options), issues }
}

function labelGapGate(
  splits: Record<SplitName, RecordPlanEntry[]>,
  options: { allowLabelGaps?: readonly string[]; allowAnyLabelGap?: boolean },
): LabelGapGate {
  const allowed = new Set(options.allowLabelGaps ?? [])
  const gate: LabelGapGate = { status: 'passed', blocking: [], waived: [], blocking_levels: [], waived_levels: [] }
  const trainCategories = new Set(splits.train.map((entry) => entry.record.target?.category_id))
  const trainLevels = new Set(splits.train.map((entry) => entry.level))
  for (const split of ['val', 'test'] as const) {
    const categories = [...new Set(splits[split].map((entry) => entry.record.target?.category_id as string))]
      .filter((label) => !trainCategories.has(label))
      .sort()
    const levels = [...new Set(splits[split].map((entry) => entry.level))].filter((label) => !trainLevels.has(label)).sort()
    for (const label of categories)
      (options.allowAnyLabelGap || allowed.has(label) ? gate.waived : gate.blocking).push({ label, split })
    for (const label of levels)
      (options.allowAnyLabelGap || allowed.has(label) ? gate.waived_levels : gate.blocking_levels).push({ label, split })
  }
  gate.status =
    gate.blocking.length + gate.blocking_levels.length > 0
      ? 'failed'
      : gate.waived.length + gate.waived_levels.length > 0
        ? 'waived'
        : 'passed'
  return gate
}

export function recordRowInputs(entries: readonly RecordPlanEntry[], metadataFields: readonly string[]): RecordRowInput[] {
  return entries.map(({ record, level }) => {
    const source = record.metadata as Record<string, unknown>
    // Rows read only the task's fields: a record whose fields are all text lends its metadata as it is.
    let metadata = source as Record<string, string>
    if (!metadataFields.every((field) => typeof source[field] === 'string')) {
      metadata = {}
      for (const field of metadataFields)
        metadata[field] = source[field] === undefined || source[field] === null ? '' : String(source[field])
    }
    return { id: record.id, metadata, groundTruth: record.target?.category_id as string, level }
  })
}
