/**
 * @module release/trajectories: rows checked against the canonical records they came from: the source
 * exists and is resolved, sits in the same split, and carries the same metadata, category and level. And
 * the other way: which canonical records a release must contain.
 */
import type { GradingTask } from '../../envs/grading/grading-task.js'
import type { CanonicalRecord, SplitName } from '../contracts/canonical-record.js'
import { trajectorySourceOf } from './plan-trajectories.js'
import type { TrajectoryRow } from './trajectory-row.js'

function levelOf(record: CanonicalRecord, task: GradingTask): string {
  const raw = (record as Record<string, unknown>)[task.grading.gt_field]
  return typeof raw === 'string' ? raw.trim() : ''
}

export function canonicalProvenanceErrors(options: {
  row: Partial<TrajectoryRow>
  split: SplitName
  task: GradingTask
  canonicalById: ReadonlyMap<string, CanonicalRecord>
}): string[] {
  const { row, task } = options
  const record = typeof row.source_id === 'string' ? options.canonicalById.get(row.source_id) : undefined
  if (!record) return ['source_id is not a canonical record']
  if (record.resolution_status !== 'resolved') return [`the canonical record is ${record.resolution_status}, not resolved`]
  const errors: string[] = []
  if (record.split !== options.split) errors.push(`the canonical split is ${record.split}, but the row is in ${options.split}`)
  if (record.target?.category_id !== row.ground_truth)
    errors.push(`ground_truth is not the canonical target ${record.target?.category_id}`)
  const level = levelOf(record, task)
  if (level !== row.ground_truth_level) errors.push(`ground_truth_level is not the canonical ${task.grading.gt_field} ${level}`)
  const metadata = trajectorySourceOf(record, level, task.taskConfig.metadata_fields).metadata
  if (JSON.stringify(metadata) !== JSON.stringify(row.metadata)) errors.push("metadata differs from the canonical record's")
  return errors
}

/** Ids of the records an export of `records` contains: resolved, split, with a grading label. */
export function expectedReleaseIds(records: readonly CanonicalRecord[], task: GradingTask): Set<string> {
  const ids = new Set<string>()
  for (const record of records)
    if (record.resolution_status === 'resolved' && record.split !== null && levelOf(record, task)) ids.add(record.id)
  return ids
}
