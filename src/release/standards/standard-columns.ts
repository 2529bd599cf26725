/**
 * @module release/standards: which header of a standards sheet holds each column the build uses (pure):
 * the standards mapping's choice where it names one, else the best alias match (a whole-text match before
 * a part match, then the leftmost). A column the build uses must be found, or declared absent (`null` in
 * the mapping); a header that looks like a known column but is not used is named, never dropped silently.
 */
import type { StandardsMapping } from '../contracts/standards-mapping.js'
import { levelColumnDepth, looksLike, roleMatch, type StandardRole } from './standard-header-aliases.js'

/** A header as compared: trimmed, whitespace runs one space. */
export const standardHeaderKey = (text: string) => text.trim().replace(/\s+/g, ' ')

export interface ClassificationColumns {
  /** Level columns, top level first. */
  levels: string[]
  code: string | null
  description: string | null
  examples: string | null
  suggested_level: string | null
}

export interface GradingColumns {
  level: string | null
  name: string | null
  description: string | null
}

export interface ColumnChoice<Columns> {
  columns: Columns
  /** Problems that stop the build: a mapped header absent, level columns not found. */
  errors: string[]
  /** Columns the build uses that were neither found nor declared absent (these stop the build too). */
  missing: string[]
  /** Headers that look like a standards column, left unused. */
  unused: { header: string; looks_like: string }[]
}

const hint = 'name it in --mapping (release init writes one), or declare that the standard has none with null'

interface Chooser {
  headers: string[]
  taken: Set<string>
  errors: string[]
  missing: string[]
  table: 'classification' | 'grading'
}

function chooser(headers: readonly string[], table: Chooser['table']): Chooser {
  return {
    headers: [...new Set(headers.map(standardHeaderKey).filter(Boolean))],
    taken: new Set(),
    errors: [],
    missing: [],
    table,
  }
}

/** The role's name in messages and the mapping (`grading_level` → `level`). */
const roleName = (role: StandardRole) => role.replace(/^grading_/, '')

/** Why a used column stops the build, and how to fix it. */
export function missingColumnMessage(table: 'classification' | 'grading', role: string): string {
  return `no ${role.replace('_', ' ')} column in the ${table} sheet: ${hint}`
}

/** The header for `role`: mapped (checked to exist), declared absent (null), or the best alias match. */
function choose(state: Chooser, role: StandardRole, mapped: string | null | undefined, required: boolean): string | null {
  if (mapped === null) return null
  if (mapped !== undefined) {
    if (!state.headers.includes(mapped))
      state.errors.push(
        `the mapped ${state.table} header "${mapped}" (${role}) is not in the header row (${state.headers.join(', ')})`,
      )
    state.taken.add(mapped)
    return state.headers.includes(mapped) ? mapped : null
  }
  let best: string | null = null
  let bestScore = 0
  for (const header of state.headers) {
    if (state.taken.has(header)) continue
    const score = roleMatch(header, role)
    if (score > bestScore) [best, bestScore] = [header, score]
  }
  if (best !== null) state.taken.add(best)
  else if (required) state.missing.push(roleName(role))
  return best
}

function unusedOf(state: Chooser): ColumnChoice<unknown>['unused'] {
  return state.headers
    .filter((header) => !state.taken.has(header))
    .flatMap((header) => {
      const kind = looksLike(header) ?? (levelColumnDepth(header) > 0 ? 'level column' : undefined)
      return kind ? [{ header, looks_like: kind }] : []
    })
}

/** Level columns by their depth, the first of each depth; an unrecognised depth between two is an error. */
function levelColumns(state: Chooser, mapped: readonly string[] | undefined): string[] {
  if (mapped) {
    for (const header of mapped)
      if (!state.headers.includes(header))
        state.errors.push(
          `the mapped classification level column "${header}" is not in the header row (${state.headers.join(', ')})`,
        )
    for (const header of mapped) state.taken.add(header)
    return mapped.filter((header) => state.headers.includes(header))
  }
  const byDepth = new Map<number, string>()
  for (const header of state.headers) {
    const depth = levelColumnDepth(header)
    if (depth > 0 && !byDepth.has(depth)) byDepth.set(depth, header)
  }
  const depths = [...byDepth.keys()].sort((a, b) => a - b)
  if (depths.length === 0)
    state.errors.push(
      `no level columns (一级分类, 二级分类, … or Level 1, Level 2, …) in the classification sheet (headers: ${state.headers.join(', ')})`,
    )
  else if (depths.at(-1) !== depths.length)
    state.errors.push(`level columns were found for levels ${depths.join(', ')} only: name every level column in --mapping`)
  const levels = depths.map((depth) => byDepth.get(depth) as string)
  for (const header of levels) state.taken.add(header)
  return levels
}

/** The code column: the deepest level's (`三级编码`, `Level 3 code`) when there are several. */
function codeColumn(state: Chooser, mapped: string | null | undefined, required: boolean): string | null {
  if (mapped !== undefined) return choose(state, 'code', mapped, required)
  const candidates = state.headers.filter((header) => !state.taken.has(header) && roleMatch(header, 'code') > 0)
  const depth = (header: string) => levelColumnDepth(header.replace(/\s*(编码|代码|编号|code)\s*$/i, ''))
  const best = candidates.sort((a, b) => depth(b) - depth(a))[0]
  if (best === undefined) return choose(state, 'code', undefined, required)
  state.taken.add(best)
  return best
}

export function classificationColumns(options: {
  headers: readonly string[]
  mapping?: StandardsMapping['classification']
  idStrategy: 'path' | 'code'
}): ColumnChoice<ClassificationColumns> {
  const state = chooser(options.headers, 'classification')
  const mapping = options.mapping ?? {}
  const levels = levelColumns(state, mapping.levels)
  const columns: ClassificationColumns = {
    levels,
    code: codeColumn(state, mapping.code, options.idStrategy === 'code'),
    description: choose(state, 'description', mapping.description, true),
    examples: choose(state, 'examples', mapping.examples, true),
    suggested_level: choose(state, 'suggested_level', mapping.suggested_level, true),
  }
  return { columns, errors: state.errors, missing: state.missing, unused: unusedOf(state) }
}

export function gradingColumns(options: {
  headers: readonly string[]
  mapping?: StandardsMapping['grading']
}): ColumnChoice<GradingColumns> {
  const state = chooser(options.headers, 'grading')
  const mapping = options.mapping ?? {}
  const columns: GradingColumns = {
    level: choose(state, 'grading_level', mapping.level, true),
    name: choose(state, 'grading_name', mapping.name, false),
    description: choose(state, 'grading_description', mapping.description, true),
  }
  return { columns, errors: state.errors, missing: state.missing, unused: unusedOf(state) }
}

/** The mapped headers a header row must hold (none when the mapping names none: aliases decide). */
export function mappedHeaders(mapping: StandardsMapping | undefined, table: 'classification' | 'grading'): string[] {
  if (!mapping) return []
  const part = mapping[table] as Record<string, string | string[] | null | undefined>
  return Object.values(part).flatMap((value) => (value === null || value === undefined ? [] : value))
}

/** Whether a row is the table's header row: it holds every mapped header, or names a level column. */
export function isStandardHeader(options: {
  cells: readonly string[]
  table: 'classification' | 'grading'
  mapping?: StandardsMapping
}): boolean {
  const keys = new Set(options.cells.map(standardHeaderKey))
  const wanted = mappedHeaders(options.mapping, options.table)
  const levelNamed =
    options.table === 'classification'
      ? options.mapping?.classification.levels !== undefined
      : options.mapping?.grading.level !== undefined
  if (levelNamed) return wanted.every((header) => keys.has(header))
  if (!wanted.every((header) => keys.has(header))) return false
  return options.table === 'classification'
    ? options.cells.some((cell) => levelColumnDepth(cell) > 0)
    : options.cells.some((cell) => roleMatch(cell, 'grading_level') > 0)
}

/** What a header row must contain, for the error when none is found. */
export function headerRowRule(table: 'classification' | 'grading'): string {
  return table === 'classification'
    ? 'a classification header row names its level columns (一级分类, 二级分类, … or Level 1, Level 2, …, or both as 一级分类\\nLevel 1), beside code (编码 / Code), description (说明 / Description), examples (示例 / Examples) and suggested level (建议级别 / Suggested level) columns'
    : 'a grading header row names a level column (级别 / 分级 / 等级, or Level / Grade / Sensitivity level) and a description column (说明 / Description), and may name a level name column (名称 / Name)'
}
