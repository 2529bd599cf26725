import { describe, expect, it } from 'vitest'
import { parseColumnMapping } from '../contracts/column-mapping.js'
import { mapHeader } from './map-header.js'

const mapping = parseColumnMapping({ 表: 'table_name', '字段名 Field Name': 'field_name', 分级: 'data_level' }, 'm.json')

describe('mapHeader', () => {
  it('finds each mapped field by its header with whitespace collapsed, and lists the headers left out', () => {
    const result = mapHeader(['表', '字段名\nField Name', '备注', '分级'], mapping, 1)
    expect(result.found).toEqual([
      { field: 'table_name', index: 0, header: '表' },
      { field: 'field_name', index: 1, header: '字段名 Field Name' },
      { field: 'data_level', index: 3, header: '分级' },
    ])
    expect(result.problems).toEqual([])
    expect(result.unmapped).toEqual(['备注'])
  })

  it('names a repeated mapped header and a missing one, in the mapping order', () => {
    const result = mapHeader(['表', '分级', '表'], mapping, 3)
    expect(result.problems.map((problem) => [problem.code, problem.header])).toEqual([
      ['duplicate_header', '表'],
      ['missing_column', '字段名 Field Name'],
    ])
    expect(result.problems[1]?.message).toContain('(row 3)')
    expect(result.found.map((found) => found.field)).toEqual(['table_name', 'data_level'])
  })
})
