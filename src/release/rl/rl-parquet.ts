/**
 * @module release/rl: the Parquet layout of RL rows: the five VeRL columns with `prompt` as
 * list<struct<role, content>>, `reward_model` and `extra_info` as structs (`metadata` a struct of the
 * task's fields, `candidates` a list of strings). The cascade layout (one stage-1 row per episode) has
 * no `candidates`.
 */
import { readParquetRows, writeParquetRows } from '../parquet/parquet-rows.js'
import { fieldsOf, type ParquetField, shapes } from '../parquet/parquet-shape.js'
import type { RlRow } from './rl-row.js'

export function rlParquetColumns(options: { metadataFields: readonly string[]; candidates: boolean }): ParquetField[] {
  return fieldsOf({
    data_source: shapes.string,
    prompt: shapes.list(shapes.strings(['role', 'content'])),
    ability: shapes.string,
    reward_model: shapes.strings(['style', 'ground_truth']),
    extra_info: shapes.struct({
      dataset: shapes.string,
      stage: shapes.string,
      source_id: shapes.string,
      metadata: shapes.strings(options.metadataFields),
      ground_truth_level: shapes.string,
      trajectory_format: shapes.string,
      ...(options.candidates ? { candidates: shapes.list(shapes.string) } : {}),
    }),
  })
}

/** Writes RL rows; returns the file's SHA-256. */
export function writeRlParquet(options: {
  path: string
  rows: readonly RlRow[]
  metadataFields: readonly string[]
  candidates: boolean
}): string {
  return writeParquetRows({
    path: options.path,
    columns: rlParquetColumns(options),
    rows: options.rows as unknown as Record<string, unknown>[],
  })
}

/** Reads RL rows back as plain objects (unvalidated: `checkRlRow` judges them). */
export async function readRlParquet(
  path: string,
  options: { metadataFields: readonly string[]; candidates: boolean },
): Promise<{ rows: Record<string, unknown>[]; sha256: string; columnNames: string[] }> {
  return readParquetRows(path, rlParquetColumns(options))
}
