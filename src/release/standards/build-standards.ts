/**
 * @module release/standards: a classification standard's table (one row a leaf, its ancestors in merged
 * cells already filled in) and a grading standard's table → the leaf registry, category corpus,
 * classification and grading standard JSON, plus an alignment report (pure). Columns are found by their
 * Chinese or English headers or named by the standards mapping; levels are read by the grading sheet's
 * scheme (numbered, or named through a level map). Ids follow the dataset's strategy: path ids as the
 * canonical build derives them, or the standard's codes (text: `010101` keeps its zeros).
 */
import { removeWhitespace } from '../../core/python/python-text.js'
import type { StandardsMapping } from '../contracts/standards-mapping.js'
import { type LevelResult, type LevelScheme, resolveLevel } from '../levels/level-scheme.js'
import { readLevelSpelling } from '../levels/level-spelling.js'
import { gradingLevels } from './grading-levels.js'
import {
  type ClassificationColumns,
  classificationColumns,
  type GradingColumns,
  gradingColumns,
  missingColumnMessage,
} from './standard-columns.js'

export interface StandardRow {
  /** Spreadsheet row number, for the report. */
  row: number
  /** Cells by header (trimmed, whitespace runs one space; the first of repeated headers). */
  cells: Readonly<Record<string, string>>
}

export interface StandardsInput {
  dataset: string
  idStrategy: 'path' | 'code'
  source: string
  classification: StandardTable & { mergedRanges: number }
  grading: StandardTable
  mapping?: StandardsMapping
}

export interface StandardTable {
  headers: readonly string[]
  rows: readonly StandardRow[]
  /** The row that held the headers (titles above it are skipped); 1 when not given. */
  headerRow?: number
  /** Notes under the table (注：…): never categories. */
  notes?: readonly { row: number; text: string }[]
  /** Headers that appear more than once. */
  repeatedHeaders?: readonly string[]
}

/** Letters then digits (`B4-1`, `A.01.02`), or digits alone (`010101`, `01.02`): codes are text. */
const codePattern = /^(?:[A-Z]{1,4}[-.]?)?\d+(?:[-.]\d+)*$/

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
  /** Every column the build reads, by role (null: the standard has none, as the mapping declares). */
  columns: { classification: ClassificationColumns; grading: GradingColumns }
  /** Headers that look like a standards column but were not used. */
  unused_columns: { table: 'classification' | 'grading'; header: string; looks_like: string }[]
  /** Level names → codes (the mapping's, or the grading sheet's name column). */
  level_map: Record<string, string>
  errors: string[]
  leaves_without_description: { row: number; name: string }[]
  duplicate_names: { name: string; category_ids: string[] }[]
  unparsed_codes: { row: number; name: string; code: string }[]
  unparsed_levels: { row: number; name: string; level: string }[]
  grading_levels: string[]
}

interface Category {
  category_id: string
  name: string
  description: string
  path: string[]
  code: string | null
  examples: string[]
  level: string | null
}

function newReport(input: StandardsInput): AlignmentReport {
  return {
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
    level_columns: [],
    code_column: null,
    columns: {
      classification: { levels: [], code: null, description: null, examples: null, suggested_level: null },
      grading: { level: null, name: null, description: null },
    },
    unused_columns: [],
    level_map: {},
    errors: [],
    leaves_without_description: [],
    duplicate_names: [],
    unparsed_codes: [],
    unparsed_levels: [],
    grading_levels: [],
  }
}

/** Columns of both sheets; a used column whose header repeats is an error (which one is meant?). */
function chooseColumns(input: StandardsInput, report: AlignmentReport) {
  const classification = classificationColumns({
    headers: input.classification.headers,
    idStrategy: input.idStrategy,
    ...(input.mapping ? { mapping: input.mapping.classification } : {}),
  })
  const grading = gradingColumns({
    headers: input.grading.headers,
    ...(input.mapping ? { mapping: input.mapping.grading } : {}),
  })
  report.columns = { classification: classification.columns, grading: grading.columns }
  report.level_columns = classification.columns.levels
  report.code_column = classification.columns.code
  report.errors.push(...classification.errors, ...grading.errors)
  for (const [table, choice] of [
    ['classification', classification],
    ['grading', grading],
  ] as const)
    report.errors.push(...choice.missing.map((role) => missingColumnMessage(table, role)))
  report.unused_columns = [
    ...classification.unused.map((entry) => ({ table: 'classification' as const, ...entry })),
    ...grading.unused.map((entry) => ({ table: 'grading' as const, ...entry })),
  ]
  for (const [table, columns, repeated] of [
    ['classification', classification.columns, input.classification.repeatedHeaders],
    ['grading', grading.columns, input.grading.repeatedHeaders],
  ] as const) {
    const used = Object.values(columns).flat()
    for (const header of repeated ?? [])
      if (used.includes(header)) report.errors.push(`the ${table} header "${header}" appears more than once: rename one of them`)
  }
  return { classification: classification.columns, grading: grading.columns }
}

/** A leaf's suggested level; a numbered one the grading standard lacks is kept, for the alignment check to name. */
function suggestedLevel(raw: string, scheme: LevelScheme): LevelResult {
  const resolved = resolveLevel(raw, scheme)
  if ('level' in resolved) return resolved
  const reading = readLevelSpelling(raw)
  return reading.kind === 'number' && reading.value > 0 && scheme.numbered ? { level: `L${reading.value}` } : resolved
}

function readCategories(options: {
  input: StandardsInput
  columns: ClassificationColumns
  report: AlignmentReport
  scheme: LevelScheme
}): Category[] {
  const { input, columns, report, scheme } = options
  const categories: Category[] = []
  const ids = new Map<string, number>()
  for (const { row, cells } of input.classification.rows) {
    const path = columns.levels.map((column) => (cells[column] ?? '').trim()).filter((part) => part !== '')
    const name = path.at(-1)
    if (!name) continue
    const text = (column: string | null) => (column ? (cells[column] ?? '').trim() : '')
    const code = text(columns.code) || null
    const description = text(columns.description)
    const examples = text(columns.examples)
      .split(/[、,，;；\n]/)
      .map((part) => part.trim())
      .filter((part) => part !== '')
    const rawLevel = text(columns.suggested_level)
    const resolved = rawLevel ? suggestedLevel(rawLevel, scheme) : { level: '' }
    const level = 'level' in resolved ? resolved.level || null : null
    if ('problem' in resolved) {
      report.unparsed_levels.push({ row, name, level: rawLevel })
      report.errors.push(`row ${row}: suggested level "${rawLevel}" of "${name}" does not parse: ${resolved.problem}`)
    }
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
    categories.push({ category_id: id, name, description, path: path.slice(0, -1), code, examples, level })
  }
  return categories
}

export function buildStandards(input: StandardsInput) {
  const report = newReport(input)
  const columns = chooseColumns(input, report)
  const grading = gradingLevels({
    rows: input.grading.rows,
    columns: columns.grading,
    ...(input.mapping ? { mapping: input.mapping } : {}),
  })
  report.errors.push(...grading.errors)
  report.level_map = grading.levelMap
  report.grading_levels = grading.levels
  const categories = readCategories({ input, columns: columns.classification, report, scheme: grading.scheme })
  report.leaves = categories.length
  const names = new Map<string, string[]>()
  for (const category of categories) names.set(category.name, [...(names.get(category.name) ?? []), category.category_id])
  report.duplicate_names = [...names].filter(([, list]) => list.length > 1).map(([name, list]) => ({ name, category_ids: list }))
  if (input.idStrategy === 'code') {
    for (const { row, code, name } of report.unparsed_codes)
      report.errors.push(`row ${row}: code "${code}" of "${name}" does not parse`)
  }
  if (grading.errors.length === 0)
    for (const category of categories)
      if (category.level && !grading.levels.includes(category.level))
        report.errors.push(`leaf "${category.name}" suggests level ${category.level}, which the grading standard lacks`)
  report.status = report.errors.length === 0 ? 'passed' : 'failed'
  const strip = ({ level: _level, examples: _examples, ...rest }: Category) => rest
  const levelMap = Object.keys(grading.levelMap).length > 0 ? { level_map: grading.levelMap } : {}
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
    grading: { levels: grading.levels, descriptions: grading.descriptions, gt_field: 'data_level', ...levelMap },
  }
}
