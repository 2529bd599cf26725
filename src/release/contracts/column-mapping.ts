/**
 * @module release/contracts: the spreadsheet mapping: header text → standard field, or a free metadata
 * field `metadata.<name>` (any other column a data owner keeps: owner, source system, remarks). Headers
 * are matched after trimming; every target must be a standard or a well-formed free field, no target
 * twice, and `field_name` is required.
 */
import { z } from 'zod'
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { invalidAsset } from '../../envs/grading/assets/parse-asset.js'

const standardFields = [
  'database_name',
  'database_description',
  'table_name',
  'table_description',
  'field_name',
  'field_description',
  'field_type',
  'level_1',
  'level_2',
  'level_3',
  'level_4',
  'data_level',
  // Free metadata: kept in the record's metadata, shown to the agent when the task's metadata_fields name it.
  'sample_values',
] as const
export type StandardField = (typeof standardFields)[number]
/** A free metadata column: kept in the record's metadata under `<name>`, shown where the task's metadata_fields name it. */
export type FreeMetadataField = `metadata.${string}`
export type MappedField = StandardField | FreeMetadataField

const freeMetadataField = /^metadata\.([a-z][a-z0-9_]{0,63})$/
/** Names a free field may not take: the record's own metadata keys and the standard fields. */
const reservedNames = new Set<string>([...standardFields, 'value', 'database_description', 'table_description'])

/** The metadata key of a free field (`metadata.owner` → `owner`); undefined for a standard field. */
export function freeMetadataName(field: MappedField): string | undefined {
  return freeMetadataField.exec(field)?.[1]
}

/** Header → standard or free field, in the file's order. */
export type ColumnMapping = ReadonlyMap<string, MappedField>

export function parseColumnMapping(value: unknown, source: string): ColumnMapping {
  const asset = { kind: 'column mapping', source, code: 'invalid_mapping' as const }
  const shape = z.record(z.string(), z.string()).safeParse(value)
  if (!shape.success || Object.keys(shape.data).length === 0) {
    invalidAsset(asset, [
      { code: 'invalid_type', path: source, message: 'the mapping must be a non-empty object of header → field' },
    ])
  }
  const issues: InputIssue[] = []
  const mapping = new Map<string, MappedField>()
  const targets = new Map<string, string>()
  for (const [rawHeader, rawField] of Object.entries(shape.data)) {
    const header = rawHeader.trim()
    const field = rawField.trim()
    const path = `${source}:${header || JSON.stringify(rawHeader)}`
    if (!header || !field) {
      issues.push({ code: 'empty_mapping', path, message: 'headers and fields must be non-empty' })
      continue
    }
    if (mapping.has(header))
      issues.push({ code: 'duplicate_header', path, message: `header "${header}" is mapped twice after trimming` })
    const free = freeMetadataField.exec(field)?.[1]
    if (free !== undefined && reservedNames.has(free)) {
      issues.push({
        code: 'reserved_field',
        path,
        message: `"${field}" names a standard field: map the column to "${free}" itself`,
      })
      continue
    }
    if (free === undefined && !(standardFields as readonly string[]).includes(field)) {
      issues.push({
        code: 'unknown_field',
        path,
        message: `"${field}" is not a standard field (${standardFields.join(', ')}) nor a free one (metadata.<name>, lower-case letters, digits and _)`,
      })
      continue
    }
    const previous = targets.get(field)
    if (previous !== undefined)
      issues.push({ code: 'duplicate_target', path, message: `"${field}" is already mapped from "${previous}"` })
    targets.set(field, header)
    mapping.set(header, field as MappedField)
  }
  if (!targets.has('field_name') && issues.length === 0) {
    issues.push({ code: 'missing_field_name', path: source, message: 'no header maps to field_name' })
  }
  if (issues.length > 0) invalidAsset(asset, issues)
  return mapping
}
