/**
 * @module release/trajectories: which records become trajectories: the resolved, split records with a
 * grading label, checked by the same contract and label-gap gate as the legacy SFT export, in id order
 * per split, as `TrajectorySource`s (prompt metadata as text). The task must show `field_name` and
 * `table_name`, since every search call passes them.
 */

import { basename } from 'node:path'
import { carriedCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { metadataText } from '../../envs/grading/native-prompt.js'
import { loadCanonicalRecords } from '../canonical/parse-canonical-records.js'
import type { CanonicalRecord, SplitName } from '../contracts/canonical-record.js'
import { labelGapError } from '../contracts/export-report-parts.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { planRecords, type RecordPlan } from '../planning/record-plan.js'
import { loadTaskFor, type TaskOptions } from '../planning/task-options.js'
import type { TrajectorySource } from './build-trajectory.js'

export interface TrajectoryPlan {
  splits: Record<SplitName, TrajectorySource[]>
  gate: RecordPlan['gate']
  skippedNoLevel: RecordPlan['skippedNoLevel']
  canonicalResolved: number
}

const searchFields = ['field_name', 'table_name'] as const

function checkTrajectoryTask(task: GradingTask, path = '--task-config'): void {
  const missing = searchFields.filter((field) => !task.taskConfig.metadata_fields.includes(field))
  if (missing.length > 0) {
    throw new InvalidInputError({
      code: 'invalid_task_config',
      path,
      message: `Trajectories need ${missing.join(' and ')} among the prompt metadata fields: every search call passes them, so the model must see them.`,
      issues: missing.map((field) => ({
        code: 'missing_metadata_field',
        path: `${path}:metadata_fields`,
        message: `add ${field}`,
      })),
    })
  }
}

export function trajectorySourceOf(record: CanonicalRecord, level: string, fields: readonly string[]): TrajectorySource {
  const source = record.metadata as Record<string, unknown>
  const metadata: Record<string, string> = {}
  for (const field of fields) metadata[field] = metadataText(source[field])
  return { sourceId: record.id, metadata, groundTruth: record.target?.category_id as string, groundTruthLevel: level }
}

/** Plans the trajectories of `records`; contract problems and a failed label-gap gate are thrown. */
function planTrajectories(options: {
  records: readonly CanonicalRecord[]
  task: GradingTask
  source: string
  allowLabelGaps?: readonly string[]
  allowAnyLabelGap?: boolean
}): TrajectoryPlan {
  checkTrajectoryTask(options.task)
  const plan = planRecords(options)
  if (plan.issues.length > 0) {
    const first = plan.issues[0]
    throw new InvalidInputError({
      code: carriedCode(first?.code ?? 'invalid_record'),
      path: first?.path ?? options.source,
      message: `${options.source} has records no trajectory can be built from (${plan.issues.length}); first: ${first?.path}: ${first?.message}.`,
      issues: plan.issues.slice(0, 500),
    })
  }
  if (plan.gate.status === 'failed') throw labelGapError({ path: options.source, source: options.source, gate: plan.gate })
  const fields = options.task.taskConfig.metadata_fields
  const splits = {} as Record<SplitName, TrajectorySource[]>
  for (const [split, entries] of Object.entries(plan.splits) as [SplitName, RecordPlan['splits'][SplitName]][])
    splits[split] = entries.map((entry) => trajectorySourceOf(entry.record, entry.level, fields))
  return { splits, gate: plan.gate, skippedNoLevel: plan.skippedNoLevel, canonicalResolved: plan.canonicalResolved }
}

/** Loads the task files and the canonical records a trajectory stage names, and plans their trajectories. */
export function loadTrajectoryPlan(
  options: TaskOptions & { canonical: string; allowLabelGaps?: readonly string[]; allowAnyLabelGap?: boolean },
): { loaded: LoadedTask; canonical: ReturnType<typeof loadCanonicalRecords>; plan: TrajectoryPlan } {
  const loaded = loadTaskFor(options)
  const canonical = loadCanonicalRecords(options.canonical)
  const plan = planTrajectories({
    records: canonical.records,
    task: loaded.task,
    source: basename(options.canonical),
    ...(options.allowLabelGaps ? { allowLabelGaps: options.allowLabelGaps } : {}),
    ...(options.allowAnyLabelGap ? { allowAnyLabelGap: true } : {}),
  })
  return { loaded, canonical, plan }
}
