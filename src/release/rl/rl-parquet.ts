/**
 * @module release/rl: the Parquet layout of RL rows: the five VeRL columns with `prompt` as
 * list<struct<role, content>>, `reward_model` and `extra_info` as structs (`metadata` a struct of the
 * task's fields, `candidates` a list of strings). The cascade layout (one stage-1 row per episode) has
 * no `candidates`.
 */
import type { NestedField } from './nested-parquet.js'
import { readNestedParquet, writeNestedParquet } from './nested-parquet.js'
import type { RlRow } from './rl-row.js'

export function rlParquetColumns(options: { metadataFields: readonly string[]; candidates: boolean }): NestedField[] {
  return [
    { name: 'data_source', kind: 'string' },
    {
      name: 'prompt',
      kind: 'struct_list',
      fields: [
        { name: 'role', kind: 'string' },
        { name: 'content', kind: 'string' },
      ],
    },
    { name: 'ability', kind: 'string' },
    {
      name: 'reward_model',
      kind: 'struct',
      fields: [
        { name: 'style', kind: 'string' },
        { name: 'ground_truth', kind: 'string' },
      ],
    },
    {
      name: 'extra_info',
      kind: 'struct',
      fields: [
        { name: 'dataset', kind: 'string' },
        { name: 'stage', kind: 'string' },
        { name: 'source_id', kind: 'string' },
        { name: 'metadata', kind: 'struct', fields: options.metadataFields.map((name) => ({ name, kind: 'string' as const })) },
        { name: 'ground_truth_level', kind: 'string' },
        { name: 'trajectory_format', kind: 'string' },
        ...(options.candidates ? [{ name: 'candidates', kind: 'string_list' as const }] : []),
      ],
    },
  ]
}

/** Writes RL rows; returns the file's SHA-256. */
export function writeRlParquet(options: {
  path: string
  rows: readonly RlRow[]
  metadataFields: readonly string[]
  candidates: boolean
}): string {
  return writeNestedParquet({
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
  return readNestedParquet(path, rlParquetColumns(options))
}
