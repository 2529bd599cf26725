/**
 * @module release/standards: a classification standard's table (one row a leaf, its ancestors in merged
 * cells already filled in) and a grading standard's table → the leaf registry, category corpus,
 * classification standard and grading standard JSON, plus an alignment report (pure). Ids follow the
 * dataset's strategy: path ids as the canonical build derives them, or the standard's codes.
 */
import { removeWhitespace } from '../../core/python/python-text.js'
import { levelUpTo } from '../preprocess/normalize-cell.js'

export interface StandardRow {
  /** Spreadsheet row number, for the report. */
  row: number
  cells: Readonly<Record<string, string>>
}

export interface StandardsInput {
  dataset: string
  idStrategy: 'path' | 'code'
  source: string
  classification: StandardTable & { mergedRanges: number }
  grading: StandardTable
}

export interface StandardTable {
  headers: readonly string[]
  rows: readonly StandardRow[]
  /** The row that held the headers (titles above it are skipped); 1 when not given. */
  headerRow?: number
  /** Notes under the table (注：…): never categories. */
  notes?: readonly { row: number; text: string }[]
}

const levelHeader = /^第?([一二三四五六])级(分类|类目)?(名称)?$/
const chineseDigits = '一二三四五六'
/** A code column: 编码, 三级编码, 分类编码, 代码, 编号, code, category code, …; the deepest level's wins. */
const codeHeader = /(编码|代码|编号)$|^(category[ _]?)?code$/i
const gradingLevelHeaders = ['级别', '分级', '等级', '数据级别', '安全级别', 'level']

const levelOf = (header: string) => chineseDigits.indexOf(levelHeader.exec(header.trim())?.[1] ?? '')

/** The classification table's header row: it names at least one level column (一级分类, …). */
export function isClassificationHeader(cells: readonly string[]): boolean {
  return cells.some((cell) => levelHeader.test(cell.trim()))
}

/** The grading table's header row: it names a level column (级别, 分级, …). */
export function isGradingHeader(cells: readonly string[]): boolean {
  return cells.some((cell) => gradingLevelHeaders.includes(cell.trim().toLowerCase()))
}

function codeColumnOf(headers: readonly string[]): string | undefined {
  const codes = headers.filter((header) => codeHeader.test(header.trim()))
  const depth = (header: string) => chineseDigits.indexOf(/^第?([一二三四五六])级/.exec(header.trim())?.[1] ?? '')
  return codes.sort((a, b) => depth(b) - depth(a))[0]
}
const levelLead = /^(?:第?([1-9一二三四五六七八九])级|(?:L|LEVEL)\s*([1-9]))(?![0-9])/i
const pick = (headers: readonly string[], names: readonly string[]) => headers.find((header) => names.includes(header.trim()))
const codePattern = /^[A-Z]{1,4}[-.]?\d+(?:[-.]\d+)*$/

/** "L3", "3", "3级", "第三级", "三级（敏感）", "L3 敏感" → "L3"; undefined when it names no level. */
export function standardLevel(text: string): string | undefined {
  const direct = levelUpTo(text, 9)
  if (direct) return direct
  const match = levelLead.exec(text.trim().normalize('NFKC'))
  if (!match) return undefined
  const lead = match[0].replace(/级$/, '').replace(/^第/, '')
  return levelUpTo(match[2] ?? `${lead}级`, 9)
}

export interface AlignmentReport {
  format: 'standards-alignment-v1'
  dataset: string
  id_strategy: 'path' | 'code'
  status: 'passed' | 'failed'
  leaves: number
  merged_ranges: number
  /** The header rows used (rows above them are titles). */
  header_rows: { classification: number; grading: number }
  /** Notes found under the tables, which end there. */
  notes: { table: 'classification' | 'grading'; row: number; text: string }[]
  level_columns: string[]
  code_column: string | null
  errors: string[]
  leaves_without_description: { row: number; name: string }[]
  duplicate_names: { name: string; category_ids: string[] }[]
  unparsed_codes: { row: number; name: string; code: string }[]
  unparsed_levels: { row: number; name: string; level: string }[]
  grading_levels: string[]
}

export function buildStandards(input: StandardsInput) {
  const { headers, rows } = input.classification
  const levelColumns = headers.filter((header) => levelHeader.test(header.trim())).sort((a, b) => levelOf(a) - levelOf(b))
  const codeColumn = codeColumnOf(headers)
  const descriptionColumn = pick(headers, ['说明', '描述', '分类说明', '定义', 'description'])
  const examplesColumn = pick(headers, ['示例', '数据示例', '举例', 'examples'])
  const levelColumn = pick(headers, ['建议级别', '级别', '分级', '最低级别', 'level'])
  const report: AlignmentReport = {
    format: 'standards-alignment-v1',
    dataset: input.dataset,
    id_strategy: input.idStrategy,
    status: 'passed',
    leaves: 0,
    merged_ranges: input.classification.mergedRanges,
    header_rows: { classification: input.classification.headerRow ?? 1, grading: input.grading.headerRow ?? 1 },
    notes: [
      ...(input.classification.notes ?? []).map((note) => ({ table: 'classification' as const, ...note })),
      ...(input.grading.notes ?? []).map((note) => ({ table: 'grading' as const, ...note })),
    ],
    level_columns: levelColumns,
    code_column: codeColumn ?? null,
    errors: [],
    leaves_without_description: [],
    duplicate_names: [],
    unparsed_codes: [],
    unparsed_levels: [],
    grading_levels: [],
  }
  if (levelColumns.length === 0) report.errors.push('no level columns (一级分类, 二级分类, …) in the classification sheet')
  if (levelColumns.length === 0)
    report.errors[0] += ` (header row ${input.classification.headerRow ?? 1}: ${headers.filter(Boolean).join(', ')})`
  if (input.idStrategy === 'code' && !codeColumn)
    report.errors.push('id_strategy code needs a code column (编码, 三级编码, 分类编码, code, …)')
  const categories: {
    category_id: string
    name: string
    description: string
    path: string[]
    code: string | null
    examples: string[]
    level: string | null
  }[] = []
  const ids = new Map<string, number>()
  const names = new Map<string, string[]>()
  for (const { row, cells } of rows) {
    const path = levelColumns.map((column) => (cells[column] ?? '').trim()).filter((part) => part !== '')
    const name = path.at(-1)
    if (!name) continue
    const code = codeColumn ? (cells[codeColumn] ?? '').trim() || null : null
    const description = descriptionColumn ? (cells[descriptionColumn] ?? '').trim() : ''
    const examples = examplesColumn
      ? (cells[examplesColumn] ?? '')
          .split(/[、,，;；\n]/)
          .map((part) => part.trim())
          .filter((part) => part !== '')
      : []
    const rawLevel = levelColumn ? (cells[levelColumn] ?? '').trim() : ''
    const level = rawLevel ? (standardLevel(rawLevel) ?? null) : null
    if (rawLevel && !level) report.unparsed_levels.push({ row, name, level: rawLevel })
    if (!description) report.leaves_without_description.push({ row, name })
    if (code !== null && !codePattern.test(code)) report.unparsed_codes.push({ row, name, code })
    const id =
      input.idStrategy === 'code' ? (code ?? '') : `${input.dataset}:${path.map((part) => removeWhitespace(part)).join('.')}`
    if (!id) {
      report.errors.push(`row ${row}: leaf "${name}" has no code`)
      continue
    }
    const first = ids.get(id)
    if (first !== undefined) {
      report.errors.push(`row ${row}: category id ${id} repeats row ${first}`)
      continue
    }
    ids.set(id, row)
    names.set(name, [...(names.get(name) ?? []), id])
    categories.push({ category_id: id, name, description, path: path.slice(0, -1), code, examples, level })
  }
  report.leaves = categories.length
  report.duplicate_names = [...names].filter(([, list]) => list.length > 1).map(([name, list]) => ({ name, category_ids: list }))
  if (input.idStrategy === 'code') {
    for (const { row, code, name } of report.unparsed_codes)
      report.errors.push(`row ${row}: code "${code}" of "${name}" does not parse`)
  }
  const gradingLevel = input.grading.headers.find((header) => gradingLevelHeaders.includes(header.trim().toLowerCase()))
  const gradingText = pick(input.grading.headers, ['说明', '描述', '定义', 'description'])
  const levels: string[] = []
  const descriptions: string[] = []
  for (const { row, cells } of input.grading.rows) {
    const raw = gradingLevel ? (cells[gradingLevel] ?? '').trim() : ''
    if (!raw) continue
    const level = standardLevel(raw)
    if (!level) {
      report.errors.push(`grading row ${row}: level "${raw}" does not parse`)
      continue
    }
    if (levels.includes(level)) report.errors.push(`grading row ${row}: level ${level} repeats`)
    levels.push(level)
    descriptions.push(gradingText ? (cells[gradingText] ?? '').trim() : '')
  }
  report.grading_levels = levels
  if (levels.length === 0) report.errors.push('the grading sheet names no level (a 级别 column of L1…, 1…, 一级…)')
  for (const category of categories)
    if (category.level && !levels.includes(category.level))
      report.errors.push(`leaf "${category.name}" suggests level ${category.level}, which the grading standard lacks`)
  report.status = report.errors.length === 0 ? 'passed' : 'failed'
  const strip = ({ level: _level, examples: _examples, ...rest }: (typeof categories)[number]) => rest
  return {
    report,
    registry: { categories: categories.map(strip) },
    corpus: {
      dataset: input.dataset,
      id_strategy: input.idStrategy,
      categories: categories.map(({ level: _level, ...rest }) => rest),
    },
    classification: {
      dataset: input.dataset,
      id_strategy: input.idStrategy,
      standard_source: input.source,
      entries: categories.map((category) => ({
        standard_entry_id: `std-${category.code ?? category.category_id}`,
        category_id: category.category_id,
        name: category.name,
        path: category.path,
        description: category.description,
        code: category.code,
        standard_data_level: category.level,
      })),
    },
    grading: { levels, descriptions, gt_field: 'data_level' },
  }
}
