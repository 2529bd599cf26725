/**
 * @module release/init: a catalogue's header row → a proposed column mapping (pure). Headers are matched
 * as the standards' are (whole text before a part of a bilingual or bracketed header, then the leftmost),
 * against Chinese and English names of each standard field; category columns by their level number
 * (`一级分类`, `Category Level 1`, `Level 2`). Columns matched by no name are listed, never guessed.
 */
import type { StandardField } from '../contracts/column-mapping.js'
import { standardHeaderKey } from '../standards/standard-columns.js'
import { aliasScore, levelColumnDepth } from '../standards/standard-header-aliases.js'

type NamedField = Exclude<StandardField, 'level_1' | 'level_2' | 'level_3' | 'level_4'>

/** Folded names of each field, most specific fields first (a `Description` alone is the field's). */
const fieldAliases: readonly [NamedField, readonly string[]][] = [
  ['field_name', ['字段名', '字段英文名', '字段名称', '字段', '列名', 'field', 'field name', 'column', 'column name']],
  ['table_name', ['表名', '表英文名', '表名称', '数据表', '表', 'table', 'table name']],
  [
    'database_name',
    ['数据库名', '数据库', '库名', '数据库名称', 'database', 'database name', 'db', 'db name', 'schema', 'schema name'],
  ],
  ['table_description', ['表描述', '表中文名', '表说明', '表注释', 'table description', 'table comment']],
  ['database_description', ['数据库描述', '库描述', '数据库说明', 'database description', 'db description']],
  [
    'field_description',
    [
      '字段描述',
      '字段中文名',
      '字段说明',
      '字段注释',
      '列描述',
      'field description',
      'column description',
      'field comment',
      'column comment',
      'description',
    ],
  ],
  ['field_type', ['字段类型', '数据类型', '类型', 'type', 'data type', 'field type', 'column type']],
  [
    'data_level',
    [
      '分级',
      '级别',
      '数据级别',
      '敏感级别',
      '安全级别',
      '等级',
      '数据分级',
      'level',
      'data level',
      'sensitivity',
      'sensitivity level',
      'security level',
      'classification level',
      'grade',
    ],
  ],
  [
    'sample_values',
    ['样例值', '示例值', '样例', '示例数据', 'sample', 'sample values', 'sample value', 'example values', 'examples'],
  ],
]

export interface ProposedMapping {
  /** Header (as in the sheet, whitespace runs one space) → field, in the sheet's order. */
  mapping: [string, StandardField][]
  /** Headers no name matched. */
  unmapped: string[]
  /** Headers that repeat (a repeated header can be mapped by none). */
  repeated: string[]
}

/** How many fields a row's cells name: the header row is the row that names the most (with a field name). */
export function catalogueHeaderScore(cells: readonly string[]): number {
  const { mapping } = proposeCatalogueMapping(cells)
  return mapping.some(([, field]) => field === 'field_name') ? mapping.length : 0
}

export function proposeCatalogueMapping(cells: readonly string[]): ProposedMapping {
  const headers = cells.map(standardHeaderKey)
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const header of headers.filter(Boolean)) (seen.has(header) ? repeated : seen).add(header)
  const unique = [...seen].filter((header) => !repeated.has(header))
  const chosen = new Map<string, StandardField>()
  const depths = new Set<number>()
  for (const header of unique) {
    const depth = levelColumnDepth(header)
    if (depth >= 1 && depth <= 4 && !depths.has(depth)) {
      depths.add(depth)
      chosen.set(header, `level_${depth}` as StandardField)
    }
  }
  for (const [field, names] of fieldAliases) {
    let best: string | undefined
    let bestScore = 0
    for (const header of unique) {
      if (chosen.has(header)) continue
      const score = aliasScore(header, names)
      if (score > bestScore) [best, bestScore] = [header, score]
    }
    if (best !== undefined) chosen.set(best, field)
  }
  const order = headers.filter((header, index) => header && headers.indexOf(header) === index)
  return {
    mapping: order.filter((header) => chosen.has(header)).map((header) => [header, chosen.get(header) as StandardField]),
    unmapped: order.filter((header) => !chosen.has(header)),
    repeated: [...repeated],
  }
}
