import { describe, expect, it } from 'vitest'
import type { MappedField } from '../contracts/column-mapping.js'
import { readLabels, readMetadata, valuelessCell } from './row-fields.js'

/** A `value` reading from a plain table, recording the order of reads. */
function cells(table: Partial<Record<MappedField, string>>) {
  const reads: string[] = []
  const value = (field: MappedField) => {
    reads.push(field)
    return table[field] ?? ''
  }
  return { value, reads }
}

describe('row steps', () => {
  it('names a formula without a value and an error value; a plain cell has a value', () => {
    expect(valuelessCell('f', '')?.code).toBe('formula_without_value')
    expect(valuelessCell('e', '#N/A')).toMatchObject({ code: 'error_cell', message: expect.stringContaining('#N/A') })
    expect(valuelessCell('s', 'x')).toBeUndefined()
    expect(valuelessCell(undefined, 'x')).toBeUndefined()
  })

  it('reads the four labels in order, noting trailing codes (stripped or kept)', () => {
    const { value, reads } = cells({ level_1: '生产数据域', level_4: '生产实绩（B4-1）' })
    const stripped = readLabels(value, true)
    expect(reads).toEqual(['level_1', 'level_2', 'level_3', 'level_4'])
    expect(stripped.classification).toEqual({ level_1: '生产数据域', level_2: '', level_3: '', level_4: '生产实绩' })
    expect(stripped.notes).toEqual([{ field: 'level_4', code: 'B4-1', action: 'stripped', written: '生产实绩（B4-1）' }])
    const kept = readLabels(cells({ level_4: '生产实绩（B4-1）' }).value, false)
    expect(kept.classification.level_4).toBe('生产实绩（B4-1）')
    expect(kept.notes).toEqual([{ field: 'level_4', code: 'B4-1', action: 'kept' }])
  })

  it('writes metadata keys in record order; sample_values only when mapped; free columns last', () => {
    const { value } = cells({ database_name: 'mes', field_type: 'VARCHAR2(20)', sample_values: 'a' })
    const columns = { tableName: 't', fieldName: 'f', sampleValues: false, freeFields: [] }
    const plain = readMetadata(value, columns)
    expect(Object.keys(plain)).toEqual([
      'database_name',
      'database_description',
      'table_name',
      'table_description',
      'field_name',
      'field_description',
      'field_type',
      'value',
    ])
    expect(plain).toMatchObject({ database_name: 'mes', table_name: 't', field_name: 'f', value: '' })
    const free = [['owner', 'field_type']] as const
    const full = readMetadata(value, { ...columns, sampleValues: true, freeFields: free })
    expect(Object.keys(full).slice(-2)).toEqual(['sample_values', 'owner'])
    expect(full.sample_values).toBe('a')
  })
})
