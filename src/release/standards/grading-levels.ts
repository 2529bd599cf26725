/**
 * @module release/standards: the grading sheet → the level scheme (pure). A level is numbered (`L3`, `三级`,
 * `Level 3`, …: code `L<n>`) or named (`Confidential`), a name resolving through the mapping's level map;
 * a name column beside numbered levels (`L3 | Confidential`) declares the map itself. A name no map holds
 * is refused with the map's syntax: its order in the sheet is not proof of its rank.
 */
import type { StandardsMapping } from '../contracts/standards-mapping.js'
import { type LevelScheme, levelScheme } from '../levels/level-scheme.js'
import { foldLevelName, readLevelSpelling } from '../levels/level-spelling.js'
import type { GradingColumns } from './standard-columns.js'

export interface GradingRow {
  row: number
  cells: Readonly<Record<string, string>>
}

export interface GradingLevels {
  levels: string[]
  descriptions: string[]
  /** Name → code, from the mapping or the sheet's name column; empty when levels are only numbered. */
  levelMap: Record<string, string>
  scheme: LevelScheme
  errors: string[]
}

/** A standard's level text → `L<n>` or the level map's code; undefined when it names none. */
function standardLevelCode(raw: string, levelMap: Readonly<Record<string, string>>): string | undefined {
  const folded = foldLevelName(raw)
  for (const [name, code] of Object.entries(levelMap)) if (foldLevelName(name) === folded) return code
  const reading = readLevelSpelling(raw)
  if (reading.kind === 'number' && reading.value > 0) return `L${reading.value}`
  if (reading.kind === 'name') return undefined
  return undefined
}

function mapSyntax(names: readonly string[]): string {
  const example = names
    .slice(0, 4)
    .map((name, index) => `"${name}": "L${index + 1}"`)
    .join(', ')
  return `named levels need a level map in --mapping, lowest level first: {"level_map": {${example}${names.length > 4 ? ', …' : ''}}} (release init proposes one)`
}

export function gradingLevels(options: {
  rows: readonly GradingRow[]
  columns: GradingColumns
  mapping?: StandardsMapping
}): GradingLevels {
  const { columns } = options
  const given = options.mapping?.level_map ?? {}
  const result: GradingLevels = {
    levels: [],
    descriptions: [],
    levelMap: { ...given },
    scheme: levelScheme({ levels: [] }),
    errors: [],
  }
  const unnamed: string[] = []
  for (const { row, cells } of options.rows) {
    const raw = columns.level ? (cells[columns.level] ?? '').trim() : ''
    if (!raw) continue
    const level = standardLevelCode(raw, given)
    if (!level) {
      unnamed.push(raw)
      continue
    }
    if (result.levels.includes(level)) result.errors.push(`grading row ${row}: level ${level} repeats`)
    result.levels.push(level)
    result.descriptions.push(columns.description ? (cells[columns.description] ?? '').trim() : '')
    const name = columns.name ? (cells[columns.name] ?? '').trim() : ''
    if (name && standardLevelCode(name, {}) === undefined) {
      const mapped = standardLevelCode(name, result.levelMap)
      if (mapped !== undefined && mapped !== level)
        result.errors.push(`grading row ${row}: level name "${name}" is given for ${level} and for ${mapped}`)
      else result.levelMap[name] = level
    }
  }
  if (unnamed.length > 0)
    result.errors.push(
      `the grading sheet's levels ${unnamed.map((name) => `"${name}"`).join(', ')} are not numbered: ${mapSyntax(unnamed)}`,
    )
  for (const [name, code] of Object.entries(given))
    if (!result.levels.includes(code)) result.errors.push(`level_map: "${name}" → ${code}, which the grading sheet lacks`)
  if (result.levels.length === 0 && unnamed.length === 0)
    result.errors.push(
      'the grading sheet names no level (a Level / 级别 column of L1…, 1…, 一级…, or named levels with a level map)',
    )
  if (result.errors.length === 0) result.scheme = levelScheme({ levels: result.levels, levelMap: result.levelMap })
  return result
}
