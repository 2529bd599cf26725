/**
 * @module release/preprocess: the steps of `RowPreprocessor.add` that only read a row's mapped cells — a
 * cell without a value, its labels (trailing codes noted, and stripped unless told not to) and its metadata. Each mapped cell is read
 * through `value`, which reports a cell that holds no value; the order of reads is the order of issues.
 */
import type { MappedField } from '../contracts/column-mapping.js'
import type { FieldMetadata, LabelNote, ProcessedRecord } from '../contracts/processed-record.js'
import { detectTrailingCode, normalizeType, stripTrailingCode } from './normalize-cell.js'

export const labelFields = ['level_1', 'level_2', 'level_3', 'level_4'] as const

/** A mapped cell's cleaned text ("" when the column is not mapped). */
export type CellValue = (field: MappedField) => string

export type Classification = ProcessedRecord['classification']

/** Why a mapped cell holds no value (a formula without a cached value, an Excel error value), if it does not. */
export function valuelessCell(kind: string | undefined, raw: string): { code: string; message: string } | undefined {
  if (kind === 'f')
    return {
      code: 'formula_without_value',
      message: 'a formula without a cached value (open the file in Excel or LibreOffice and save it, or paste values)',
    }
  if (kind === 'e')
    return {
      code: 'error_cell',
      message: `the cell holds the Excel error ${raw} (a broken formula or lookup): fix it or clear the cell, then run again`,
    }
  return undefined
}

/** The four labels, in order, with a note for each trailing code ("（B4-1）") found. */
export function readLabels(
  value: CellValue,
  stripTrailingCodes: boolean,
): { classification: Classification; notes: LabelNote[] } {
  const classification = { level_1: '', level_2: '', level_3: '', level_4: '' }
  const notes: LabelNote[] = []
  for (const field of labelFields) {
    let label = value(field)
    const code = detectTrailingCode(label)
    if (code) {
      if (stripTrailingCodes) {
        notes.push({ field, code, action: 'stripped', written: label })
        label = stripTrailingCode(label)
      } else notes.push({ field, code, action: 'kept' })
    }
    classification[field] = label
  }
  return { classification, notes }
}

export interface MetadataColumns {
  tableName: string
  fieldName: string
  /** `sample_values` is mapped (written only then, so records of mappings without it keep their bytes). */
  sampleValues: boolean
  /** The mapped free metadata columns, in the mapping's order: [metadata key, field]. */
  freeFields: readonly (readonly [string, MappedField])[]
}

/** A row's metadata, keys in the order records are written (their bytes, and so the hashes, depend on it). */
export function readMetadata(value: CellValue, columns: MetadataColumns): FieldMetadata {
  const metadata = {
    database_name: value('database_name'),
    database_description: value('database_description'),
    table_name: columns.tableName,
    table_description: value('table_description'),
    field_name: columns.fieldName,
    field_description: value('field_description'),
    field_type: normalizeType(value('field_type')),
    value: '',
    ...(columns.sampleValues ? { sample_values: value('sample_values') } : {}),
  }
  for (const [name, field] of columns.freeFields) (metadata as Record<string, string>)[name] = value(field)
  return metadata
}
