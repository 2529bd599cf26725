import { describe, expect, it } from 'vitest'
import { proposeCatalogueMapping } from './catalogue-headers.js'
import { inferCodeStyle } from './infer-codes.js'
import { inferLabels } from './infer-labels.js'
import { inferCatalogueLevels, inferGradingLevels } from './infer-levels.js'

const rows = (levels: string[], names: string[] = []) => levels.map((level, index) => ({ level, name: names[index] ?? '' }))

describe('release init infers, and leaves what could be wrong to confirm', () => {
  it('numbered levels need no map; a name column declares one', () => {
    expect(inferGradingLevels(rows(['1级', 'Level 2', 'L3']))).toEqual({
      style: 'numbered',
      levels: ['L1', 'L2', 'L3'],
      level_map: {},
      order: 'numbered',
    })
    expect(inferGradingLevels(rows(['第一级', '第二级'], ['公开', '内部']))).toMatchObject({
      level_map: { 公开: 'L1', 内部: 'L2' },
      order: 'name column',
    })
  })

  it('named levels: the sheet order, reversed when the words say the sheet starts at the top', () => {
    const up = inferGradingLevels(rows(['Public', 'Internal', 'Confidential', 'Restricted']))
    expect(up).toMatchObject({
      style: 'named',
      order: 'sheet order, lowest first',
      level_map: { Public: 'L1', Restricted: 'L4' },
    })
    const down = inferGradingLevels(rows(['Secret', 'Confidential', 'Internal', 'Public']))
    expect(down).toMatchObject({
      order: 'sheet order reversed: the sheet starts at the highest level',
      level_map: { Public: 'L1', Secret: 'L4' },
    })
    expect(inferGradingLevels(rows(['L1', 'Public'])).style).toBe('mixed')
    expect(inferGradingLevels(rows([])).style).toBe('none')
  })

  it('reads each catalogue level with the proposed scheme and lists what it cannot read', () => {
    const grading = inferGradingLevels(rows(['Public', 'Internal', 'Confidential', 'Restricted', 'Secret']))
    const style = inferCatalogueLevels(['public', 'SECRET', '', 'Top secret', 'L2'], grading)
    expect(style).toEqual({
      spellings: ['named', 'numbered'],
      read: { L2: 'L2', SECRET: 'L5', public: 'L1' },
      unreadable: [{ text: 'Top secret', problem: expect.stringContaining('"Top secret" is not a level of this standard') }],
      needs_grading_config: true,
    })
    expect(inferCatalogueLevels(['3', 'L2'], inferGradingLevels(rows(['L1', 'L2', 'L3', 'L4']))).needs_grading_config).toBe(false)
  })

  it('catalogue headers: English, Chinese, bilingual; the rest listed, repeated ones never mapped', () => {
    const english = proposeCatalogueMapping([
      'Database',
      'Table',
      'Field Name',
      'Description',
      'Type',
      'Level 1',
      'Level 2',
      'Sensitivity',
      'Owner',
    ])
    expect(english.mapping).toEqual([
      ['Database', 'database_name'],
      ['Table', 'table_name'],
      ['Field Name', 'field_name'],
      ['Description', 'field_description'],
      ['Type', 'field_type'],
      ['Level 1', 'level_1'],
      ['Level 2', 'level_2'],
      ['Sensitivity', 'data_level'],
    ])
    expect(english.unmapped).toEqual(['Owner'])
    const chinese = proposeCatalogueMapping([
      '表名\nTable',
      '表描述',
      '字段名\r\nField Name',
      '字段描述',
      '一级分类',
      '分级',
      '备注',
      '备注',
    ])
    expect(Object.fromEntries(chinese.mapping)).toEqual({
      '表名 Table': 'table_name',
      表描述: 'table_description',
      '字段名 Field Name': 'field_name',
      字段描述: 'field_description',
      一级分类: 'level_1',
      分级: 'data_level',
    })
    expect([chinese.unmapped, chinese.repeated]).toEqual([['备注'], ['备注']])
  })

  it('code style: digits with leading zeros, letters and digits, mixed, missing and repeated', () => {
    expect(inferCodeStyle('Code', ['010101', '010102', '020101'])).toMatchObject({
      style: 'digits',
      digit_lengths: [6],
      leading_zeros: true,
      usable_as_ids: true,
    })
    expect(inferCodeStyle('Code', ['10101', '010102'])).toMatchObject({ digit_lengths: [5, 6], usable_as_ids: true })
    expect(inferCodeStyle('编码', ['B4-1', 'A.01.02'])).toMatchObject({ style: 'letters and digits' })
    expect(inferCodeStyle('Code', ['B4-1', '', 'B4-1', 'x?'])).toMatchObject({
      style: 'mixed',
      missing: 1,
      repeated: ['B4-1'],
      usable_as_ids: false,
    })
  })

  it('labels: the leaf level, placeholders, and labels no leaf has (trailing codes and CJK spacing forgiven)', () => {
    const labels = inferLabels({
      categoryFields: ['level_2', 'level_1'],
      rows: [
        { level_2: 'Payroll' },
        { level_2: 'Payroll (PE-01-02)' },
        { level_2: '护理 记录' },
        { level_2: 'TBD' },
        { level_2: 'Payrol' },
        { level_2: '' },
      ],
      leaves: new Set(['Payroll', '护理记录']),
    })
    expect(labels).toEqual({
      leaf_level: 'level_2',
      path_fields: ['level_1', 'level_2'],
      placeholder_labels: ['TBD'],
      unknown_labels: [{ label: 'Payrol', rows: 1 }],
      labelled_rows: 5,
    })
  })
})
