import { describe, expect, it } from 'vitest'
import { buildNativeUserPrompt } from '../../envs/grading/native-prompt.js'
import { stableRecordId } from '../../envs/grading/stable-record-id.js'
import { parseColumnMapping } from '../contracts/column-mapping.js'
import { fieldMetadataSchema } from '../contracts/processed-record.js'
import { levelScheme } from '../levels/level-scheme.js'
import { RowPreprocessor } from './row-preprocessor.js'

const mapping = parseColumnMapping(
  {
    库: 'database_name',
    表: 'table_name',
    字段: 'field_name',
    类型: 'field_type',
    一级: 'level_1',
    四级: 'level_4',
    分级: 'data_level',
  },
  'm.json',
)
const header = ['库', '表', '字段', '类型', '一级', '四级', '分级', '备注']
const source = { dataset: 'plant', file: 'data.xlsx', sha256: 'a'.repeat(64), sheet: 'S' }

describe('RowPreprocessor', () => {
  it('turns rows into processed records with ids, normalised cells, label notes and provenance', () => {
    const processor = new RowPreprocessor({ source, mapping, stripTrailingCodes: true }, header)
    expect(processor.headerValid).toBe(true)
    processor.add(2, [
      'mes ',
      ' coil\u3000actual',
      'Coil_No',
      'varchar2(20)',
      '生产数据域',
      '生产实绩（B4-1）',
      'level2',
      'ignored',
    ])
    processor.add(3, ['', '', '', '', '', '', '', ''])
    processor.add(4, ['mes', 'coil', 'tmp', '', '', '', '', 'x'])
    const { records, report } = processor.finish()
    expect(records[0]).toEqual({
      id: stableRecordId('plant', { database_name: 'mes', table_name: 'coil actual', field_name: 'Coil_No' }),
      key: 'coil_no',
      label_status: 'labeled',
      metadata: {
        database_name: 'mes',
        database_description: '',
        table_name: 'coil actual',
        table_description: '',
        field_name: 'Coil_No',
        field_description: '',
        field_type: 'STRING',
        value: '',
      },
      classification: { level_1: '生产数据域', level_2: '', level_3: '', level_4: '生产实绩' },
      data_level: 'L2',
      label_notes: [{ field: 'level_4', code: 'B4-1', action: 'stripped', written: '生产实绩（B4-1）' }],
      provenance: { source_file: 'data.xlsx', source_sha256: 'a'.repeat(64), sheet: 'S', row: 2 },
    })
    expect(records[1]).toMatchObject({ label_status: 'unlabeled', data_level: '' })
    expect(report).toMatchObject({
      data_rows: 2,
      blank_rows: 1,
      records: 2,
      trailing_codes: 1,
      ignored_columns: ['备注'],
      label_status: { labeled: 1, unlabeled: 1 },
    })
  })

  it('strips trailing codes by default, as the original does (issue 16, fix 2)', () => {
    const processor = new RowPreprocessor({ source, mapping }, header)
    processor.add(2, ['m', 't', 'f', '', '', '生产实绩（B4-1）', '2', ''])
    const { records } = processor.finish()
    expect(records[0]?.classification.level_4).toBe('生产实绩')
    expect(records[0]?.label_notes).toEqual([{ field: 'level_4', code: 'B4-1', action: 'stripped', written: '生产实绩（B4-1）' }])
  })

  it('keeps trailing codes when asked to, and can skip rows without a field name', () => {
    const processor = new RowPreprocessor({ source, mapping, skipEmptyFieldName: true, stripTrailingCodes: false }, header)
    processor.add(2, ['m', 't', 'f', '', '', '生产实绩（B4-1）', '2', ''])
    processor.add(3, ['m', 't', ' ', '', '', 'x', '2', ''])
    const { records, report } = processor.finish()
    expect(records[0]?.classification.level_4).toBe('生产实绩（B4-1）')
    expect(records[0]?.label_notes).toEqual([{ field: 'level_4', code: 'B4-1', action: 'kept' }])
    expect(report.skipped_empty_field_name).toEqual({ count: 1, rows: [3] })
    expect(processor.totalIssues).toBe(0)
  })

  it('the mapping itself is validated: unknown fields, duplicate targets, no field_name', () => {
    const issues = (value: unknown) => {
      try {
        parseColumnMapping(value, 'm.json')
      } catch (error) {
        return (error as { issues: { code: string; path: string }[] }).issues.map((issue) => `${issue.code} ${issue.path}`)
      }
      return []
    }
    expect(issues({ 名: 'field_name', 级: 'level', 别: 'field_name' })).toEqual([
      'unknown_field m.json:级',
      'duplicate_target m.json:别',
    ])
    expect(issues({ 表: 'table_name' })).toEqual(['missing_field_name m.json'])
    expect(issues([])).toEqual(['invalid_type m.json'])
    // Free metadata fields: lower-case names, never a standard field under another name, never twice.
    expect(
      issues({ 名: 'field_name', 甲: 'metadata.Owner', 乙: 'metadata.field_name', 丙: 'metadata.owner', 丁: 'metadata.owner' }),
    ).toEqual(['unknown_field m.json:甲', 'reserved_field m.json:乙', 'duplicate_target m.json:丁'])
  })

  it('free metadata columns go into the record, in the mapping order; shown only where the task names them', () => {
    const free = parseColumnMapping(
      { 表: 'table_name', 字段: 'field_name', 备注: 'metadata.remarks', 负责人: 'metadata.owner', 样例值: 'sample_values' },
      'm.json',
    )
    const processor = new RowPreprocessor({ source, mapping: free }, ['负责人', '表', '字段', '样例值', '备注'])
    processor.add(2, [' 张三 ', 'coil', 'coil_no', 'C001', '主键'])
    const [record] = processor.finish().records
    expect(record?.metadata).toMatchObject({ sample_values: 'C001', remarks: '主键', owner: '张三' })
    expect(Object.keys(record?.metadata ?? {}).slice(-3)).toEqual(['sample_values', 'remarks', 'owner'])
    const metadata = record?.metadata ?? {}
    expect(buildNativeUserPrompt(metadata, ['field_name', 'owner'])).toBe(
      'Classify this field metadata:\n{"field_name":"coil_no","owner":"张三"}',
    )
    expect(buildNativeUserPrompt(metadata, ['field_name'])).not.toContain('张三')
    // A mapping without free columns gives the records it gave before: no extra key.
    const plain = new RowPreprocessor({ source, mapping }, header)
    plain.add(2, ['m', 't', 'f', '', '', '', '2', ''])
    expect(Object.keys(plain.finish().records[0]?.metadata ?? {})).toEqual(Object.keys(fieldMetadataSchema.shape))
  })

  it('a repeated header stops the stage only when it is mapped (issue 33, item 10)', () => {
    const repeated = new RowPreprocessor({ source, mapping }, [...header, '备注'])
    expect(repeated.headerValid).toBe(true)
    repeated.add(2, ['mes', 'coil', 'weight', 'int', '生产', '实绩', 'L2', 'a', 'b'])
    expect(repeated.finish().report.ignored_columns).toEqual(['备注'])
    const mapped = new RowPreprocessor({ source, mapping }, [...header, '字段'])
    expect(mapped.issues).toEqual([
      {
        code: 'duplicate_header',
        path: 'data.xlsx:S:row 1:字段',
        message: 'mapped header "字段" appears in columns 3 and 9: rename one of them',
      },
    ])
  })

  it('bilingual headers with a line break match a mapping that writes them with a space', () => {
    const bilingual = parseColumnMapping(
      { '表名 Table': 'table_name', '字段名 Field Name': 'field_name', '分级 Level': 'data_level' },
      'm.json',
    )
    const processor = new RowPreprocessor({ source, mapping: bilingual }, ['表名\nTable', '字段名\r\nField  Name', '分级\nLevel'])
    expect(processor.headerValid).toBe(true)
    processor.add(2, ['coil', 'weight', 'Ⅲ级'])
    expect(processor.finish().records[0]).toMatchObject({ metadata: { field_name: 'weight' }, data_level: 'L3' })
  })

  it("reads levels with the grading standard's scheme: five levels, named ones, refusals naming the cell", () => {
    const levels = levelScheme({ levels: ['L1', 'L2', 'L3', 'L4', 'L5'], levelMap: { Public: 'L1', Secret: 'L5' } })
    const processor = new RowPreprocessor({ source, mapping, levels }, header)
    const row = (field: string, level: string) => ['mes', 'coil', field, 'int', '生产', '实绩', level, '']
    processor.add(2, row('a', '5级'))
    processor.add(3, row('b', 'secret'))
    processor.add(4, row('c', '3.0'))
    processor.add(5, row('d', 'Top Secret'))
    expect(processor.issues).toEqual([
      {
        code: 'unknown_level',
        path: 'data.xlsx:S:row 5:分级',
        message:
          'unsupported data level "Top Secret": "Top Secret" is not a level of this standard (L1, L2, L3, L4, L5; named Public, Secret)',
      },
    ])
    const defaults = new RowPreprocessor({ source, mapping }, header)
    defaults.add(2, row('a', '5级'))
    expect(defaults.issues[0]?.message).toMatch(/level 5 is outside this standard's 4 levels .*--grading-config/)
  })
})
