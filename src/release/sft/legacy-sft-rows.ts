/**
 * @module release/sft: the legacy SFT row: one stage-1 and one stage-2 row per planned record (see
 * `planning/record-plan.ts`), exactly [system, user, assistant] each, and its format id.
 */
import type { FixedShapeColumns } from '../parquet/fixed-shape-parquet-writer.js'
import { fieldsOf, type ParquetField, shapes } from '../parquet/parquet-shape.js'

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
