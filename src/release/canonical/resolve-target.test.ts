import { describe, expect, it } from 'vitest'
import { parseLeafRegistry } from '../../envs/grading/assets/leaf-registry.js'
import { parseColumnMapping } from '../contracts/column-mapping.js'
import { type DatasetConfig, datasetConfigSchema } from '../contracts/dataset-config.js'
import { RowPreprocessor } from '../preprocess/row-preprocessor.js'
import { CanonicalBuilder } from './build-canonical.js'
import { bareName } from './resolve-target.js'

const config = {
  ...datasetConfigSchema.parse({ dataset: 'shop', path_fields: ['level_1', 'level_4'], leaf_level: 'level_4' }),
  dataset: 'shop',
} as DatasetConfig
const leaf = (level1: string, name: string) => ({ category_id: `shop:${level1}.${name}`, name, path: [level1] })
const registry = parseLeafRegistry({
  categories: [
    // A leaf whose name ends in what looks like a code, and the same name without it.
    leaf('电商', '库存快照（C0101）'),
    leaf('电商', '库存快照'),
    leaf('电商', '订单信息'),
    leaf('电商', '退款记录'),
    leaf('客户', '会员档案'),
    leaf('医疗', '护理记录'),
    leaf('电商', 'Order Info'),
    leaf('物流', '明细'),
    leaf('金融', '明细'),
  ],
})
const mapping = parseColumnMapping(
  { 表: 'table_name', 字段: 'field_name', 一级: 'level_1', 四级: 'level_4', 分级: 'data_level' },
  'm.json',
)
const source = { dataset: 'shop', file: 'catalogue.xlsx', sha256: 'a'.repeat(64), sheet: '电商' }

/** Rows as a data owner writes them, through preprocess (which strips codes) and the canonical build. */
function build(labels: [string, string][]) {
  const processor = new RowPreprocessor({ source, mapping }, ['表', '字段', '一级', '四级', '分级'])
  for (const [index, [level1, level4]] of labels.entries()) processor.add(index + 2, ['t', `f${index}`, level1, level4, '3'])
  const builder = new CanonicalBuilder({ dataset: 'shop', config, registry, codeByLeaf: new Map(), source: 'all.json' })
  for (const record of processor.finish().records) builder.add(record)
  expect(builder.issues).toEqual([])
  const records = builder.records as unknown as {
    resolution_status: string
    resolution_rule?: string
    target?: { category_id: string }
    classification: Record<string, string>
    label_notes?: unknown[]
  }[]
  return { records, report: builder.report() }
}

describe('TargetResolver: as written, code stripped, leaf alone, whitespace by CJK, in that order', () => {
  it('a label exactly a leaf whose name looks coded resolves as written, before its stripped form', () => {
    const { records, report } = build([['电商', '库存快照（C0101）']])
    expect(records[0]).toMatchObject({
      resolution_status: 'resolved',
      target: { category_id: 'shop:电商.库存快照（C0101）' },
      // The record says what matched: the label with its code, which was kept.
      classification: { level_1: '电商', level_4: '库存快照（C0101）' },
      label_notes: [{ field: 'level_4', code: 'C0101', action: 'kept' }],
    })
    expect(report.resolution_rules).toEqual({ as_written: 1, code_stripped: 0, leaf_only: 0, whitespace_insensitive: 0 })
  })

  it('a code in brackets of any kind strips when the label as written is no leaf; notes as before', () => {
    const { records, report } = build([
      ['电商', '订单信息【B-02-01】'],
      ['电商', '退款记录（A.01.02）'],
      ['电商', '订单信息(C0101)'],
      ['电商', '退款记录'],
    ])
    expect(records.map((record) => record.target?.category_id)).toEqual([
      'shop:电商.订单信息',
      'shop:电商.退款记录',
      'shop:电商.订单信息',
      'shop:电商.退款记录',
    ])
    // The written text is only for trying: a stripped label's notes are what they were.
    expect(records[0]?.label_notes).toEqual([{ field: 'level_4', code: 'B-02-01', action: 'stripped' }])
    expect(records[0]?.classification.level_4).toBe('订单信息')
    expect(report.resolution_rules).toEqual({ as_written: 1, code_stripped: 3, leaf_only: 0, whitespace_insensitive: 0 })
  })

  it('a leaf given alone resolves when one leaf has that name (the leaf as written first), never when two do', () => {
    const { records, report } = build([
      ['', '会员档案'],
      ['', '库存快照（C0101）'],
      ['电商', '明细'],
    ])
    expect(records.map((record) => [record.resolution_status, record.resolution_rule, record.target?.category_id])).toEqual([
      ['resolved', 'leaf_only', 'shop:客户.会员档案'],
      ['resolved', 'leaf_only', 'shop:电商.库存快照（C0101）'],
      ['path_mismatch', undefined, undefined],
    ])
    expect(report.resolution_rules.leaf_only).toBe(2)
    expect(report.resolved_by_fallback.map((entry) => [entry.rule, entry.cell])).toEqual([
      ['leaf_only', 'catalogue.xlsx:电商:row 2'],
      ['leaf_only', 'catalogue.xlsx:电商:row 3'],
    ])
    expect(report.unresolved.records.map((entry) => entry.cell)).toEqual(['catalogue.xlsx:电商:row 4'])
  })

  it('whitespace next to CJK characters is ignored last; between Latin words it separates words', () => {
    const { records, report } = build([
      ['医疗', '护理 记录'],
      ['电商', 'OrderInfo'],
    ])
    expect(records.map((record) => [record.resolution_status, record.resolution_rule])).toEqual([
      ['resolved', 'whitespace_insensitive'],
      ['missing_leaf', undefined],
    ])
    expect(report.resolution_rules).toEqual({ as_written: 0, code_stripped: 0, leaf_only: 0, whitespace_insensitive: 1 })
    expect([bareName('护理 记录'), bareName('Order  Info'), bareName('ＰＯＳ 流水')]).toEqual([
      '护理记录',
      'Order Info',
      'POS流水',
    ])
  })
})
