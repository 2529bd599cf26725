/**
 * @module release/sft: legacy SFT rows encoded straight into Parquet PLAIN column buffers, a batch (one row
 * group) at a time. Task-level text (system prompts, the catalog, candidate entries, labels) is UTF-8
 * encoded once and copied; per row only the record's own text is encoded.
 */
import type { LegacyPromptBuilder, LegacyRowParts } from '../../envs/grading/legacy/legacy-prompts.js'
import { type ColumnBatch, PlainColumnsBuilder } from '../parquet/plain-columns.js'
import type { RecordRowInput } from '../planning/record-plan.js'

/** Records per batch: every batch becomes one row group of twice as many rows. */
const legacySftBatchRecords = 4096

const roles = ['system', 'user', 'assistant'] as const

/**
 * Leaf columns in file order (see `legacySftColumns`): messages.role, messages.content, stage, source_id,
 * one per metadata field, ground_truth, candidates, ground_truth_level.
 */
export class LegacySftBatchBuilder {
  private readonly columns: PlainColumnsBuilder
  private readonly metadataStart = 4
  private readonly groundTruth: number
  private readonly candidates: number
  private readonly level: number

  constructor(
    private readonly builder: LegacyPromptBuilder,
    private readonly fields: readonly string[],
    capacity?: number,
  ) {
    this.groundTruth = this.metadataStart + fields.length
    this.candidates = this.groundTruth + 1
    this.level = this.candidates + 1
    this.columns = new PlainColumnsBuilder(this.level + 1, capacity)
  }

  /** Appends the record's stage-1 and stage-2 rows. */
  add(input: RecordRowInput): void {
    const parts = this.builder.buildParts({
      sourceId: input.id,
      metadata: input.metadata,
      groundTruth: input.groundTruth,
      level: input.level,
    })
    const columns = this.columns
    this.messages(parts.stage1)
    columns.value(2, 'stage1', true)
    columns.value(3, input.id)
    for (const [index, name] of this.fields.entries()) columns.value(this.metadataStart + index, input.metadata[name] ?? '')
    columns.value(this.groundTruth, input.groundTruth, true)
    for (const candidate of parts.candidates) columns.value(this.candidates, candidate, true)
    columns.value(this.level, input.level, true)
    columns.endRow()
    this.messages(parts.stage2)
    columns.value(2, 'stage2', true)
    // The stage-2 row describes the same record: its other columns are the stage-1 row's bytes.
    for (let column = 3; column <= this.level; column++) columns.repeatPreviousRow(column)
    columns.endRow()
  }

  private messages([system, user, assistant]: LegacyRowParts['stage1']): void {
    const columns = this.columns
    for (const role of roles) columns.value(0, role, true)
    columns.value(1, system, true)
    columns.begin(1)
    // Every part of the user message but the last (the record's own metadata) is task-level text.
    for (let index = 0; index < user.length - 1; index++) columns.appendRepeated(1, user[index] as string)
    columns.append(1, user.at(-1) as string)
    columns.end(1)
    columns.value(1, assistant)
  }

  take(): ColumnBatch {
    return this.columns.take()
  }

  /** Hands back a written batch's buffers for the next batches. */
  recycle(batch: ColumnBatch): void {
    this.columns.recycle(batch)
  }
}

/**
 * The inputs' rows in batches of `batchRecords` records (two rows each), built by `batches`. A batch's
 * buffers may be handed back with `batches.recycle` once it has been written.
 */
export function* legacySftBatches(options: {
  inputs: readonly RecordRowInput[]
  batches: LegacySftBatchBuilder
  batchRecords?: number
}): Generator<ColumnBatch> {
  const batchRecords = options.batchRecords ?? legacySftBatchRecords
  for (let start = 0; start < options.inputs.length; start += batchRecords) {
    const end = Math.min(start + batchRecords, options.inputs.length)
    for (let index = start; index < end; index++) options.batches.add(options.inputs[index] as RecordRowInput)
    yield options.batches.take()
  }
}
