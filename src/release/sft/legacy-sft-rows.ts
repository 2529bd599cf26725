/**
 * @module release/sft: canonical records → legacy SFT rows (pure): one stage-1 and one stage-2 row per
 * resolved record, exactly [system, user, assistant] each. Labels come only from `target.category_id` and
 * the grading field; the export checks the canonical contract and the label-gap gate before any row is built.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { sortByKey } from '../canonical/sort-by-key.js'
import { type CanonicalRecord, type SplitName, splitNames } from '../contracts/canonical-record.js'
import type { FixedShapeColumns } from '../parquet/fixed-shape-parquet-writer.js'
import { fieldsOf, type ParquetField, shapes } from '../parquet/parquet-shape.js'
import type { SftRowInput } from './legacy-sft-batches.js'

export const legacySftFormat = 'verl_sft_messages_parquet'

/** The columns of a legacy SFT row (what the SFT mixture family reads too). */
export function legacySftFields(metadataFields: readonly string[]): ParquetField[] {
  return fieldsOf({
    messages: shapes.list(shapes.strings(['role', 'content'])),
    stage: shapes.string,
    source_id: shapes.string,
    metadata: shapes.strings(metadataFields),
    ground_truth: shapes.string,
    candidates: shapes.list(shapes.string),
    ground_truth_level: shapes.string,
  })
}

/** The fixed-shape layout the SFT export writes: [system, user, assistant] and five candidates in every row. */
export function legacySftColumns(metadataFields: readonly string[]): FixedShapeColumns {
  return { columns: legacySftFields(metadataFields), listLengths: { messages: 3, candidates: 5 } }
}

export interface SftPlanEntry {
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

export interface SftPlan {
  splits: Record<SplitName, SftPlanEntry[]>
  skippedNoLevel: Record<SplitName, number>
  canonicalResolved: number
  gate: LabelGapGate
  issues: InputIssue[]
}

function sortEntries(entries: SftPlanEntry[]): SftPlanEntry[] {
  return sortByKey(entries, (entry) => entry.record.id)
}

/** Checks every record against the task and groups the trainable ones by split, in id order. */
export function planLegacySft(options: {
  records: readonly CanonicalRecord[]
  task: GradingTask
  source: string
  allowLabelGaps?: readonly string[]
  allowAnyLabelGap?: boolean
}): SftPlan {
  const { task } = options
  const names = new Map(task.registry.categories.map((category) => [category.category_id, category.name]))
  const gtField = task.grading.gt_field
  const issues: InputIssue[] = []
  const splits: Record<SplitName, SftPlanEntry[]> = { train: [], val: [], test: [] }
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
  splits: Record<SplitName, SftPlanEntry[]>,
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

export function sftRowInputs(entries: readonly SftPlanEntry[], metadataFields: readonly string[]): SftRowInput[] {
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
