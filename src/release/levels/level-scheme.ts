/**
 * @module release/levels: the levels a grading standard declares and how a cell names one (pure). One
 * scheme reads the catalogue's level column and both standards' level columns, so a level means the same
 * everywhere: a numbered spelling (`三级（敏感）`, `Level 3`, `3.0`, `Ⅲ级`) is `L<n>` when the scheme's
 * levels are `L1…Ln`; a name (`Confidential`) resolves through the scheme's level map; a level code
 * (`L3`, or a standard's own code) resolves to itself. Anything else is refused with the reason.
 */
import { foldLevelName, readLevelSpelling } from './level-spelling.js'

export interface LevelScheme {
  /** The level codes, lowest first. */
  levels: readonly string[]
  /** Folded name → level code: the level map, and every code as itself. */
  names: ReadonlyMap<string, string>
  /** The level map as given (name → code), for reports. */
  levelMap: Readonly<Record<string, string>>
  /** Numbered spellings resolve to `L<n>`: only when every code is `L<n>` (then `L<n>` must be a level). */
  numbered: boolean
}

/** A scheme from a grading standard's levels and optional level map (validated by the grading schema). */
export function levelScheme(options: { levels: readonly string[]; levelMap?: Readonly<Record<string, string>> }): LevelScheme {
  const names = new Map<string, string>()
  for (const level of options.levels) names.set(foldLevelName(level), level)
  for (const [name, level] of Object.entries(options.levelMap ?? {})) names.set(foldLevelName(name), level)
  return {
    levels: [...options.levels],
    names,
    levelMap: { ...(options.levelMap ?? {}) },
    numbered: options.levels.every((level) => /^L[1-9]\d*$/.test(level)),
  }
}

/** The catalogue's scheme when no grading standard is given: L1–L4, as the original preprocessing allows. */
export const defaultCatalogueScheme: LevelScheme = levelScheme({ levels: ['L1', 'L2', 'L3', 'L4'] })

export type LevelResult = { level: string } | { problem: string }

/** A name's level, when the scheme maps it. */
function named(scheme: LevelScheme, text: string): string | undefined {
  return scheme.names.get(foldLevelName(text))
}

function describeScheme(scheme: LevelScheme): string {
  const names = Object.keys(scheme.levelMap)
  return `${scheme.levels.join(', ')}${names.length > 0 ? `; named ${names.join(', ')}` : ''}`
}

/**
 * The level code a cell names under `scheme`: `{ level: '' }` for an empty cell, `{ problem }` when it
 * names none (out of range, a name the map lacks, an annotation naming another level).
 */
export function resolveLevel(raw: string, scheme: LevelScheme): LevelResult {
  const direct = named(scheme, raw)
  if (direct !== undefined) return { level: direct }
  const reading = readLevelSpelling(raw)
  if (reading.kind === 'empty') return { level: '' }
  if (reading.kind === 'name')
    return {
      problem:
        Object.keys(scheme.levelMap).length > 0
          ? `"${reading.name}" is not a level of this standard (${describeScheme(scheme)})`
          : `"${reading.name}" is not a level spelling this line reads (3, L3, Level 3, 3.0, 三级, 第三级, Ⅲ级, S3, 三级（敏感）); a named level needs a level map in the grading standard (e.g. "level_map": {"Public": "L1"})`,
    }
  if (!scheme.numbered) {
    return { problem: `level ${reading.value} is numbered, but this standard's levels are codes (${describeScheme(scheme)})` }
  }
  const level = `L${reading.value}`
  if (!scheme.levels.includes(level))
    return {
      problem: `level ${reading.value} is outside this standard's ${scheme.levels.length} levels (${describeScheme(scheme)})`,
    }
  if (reading.annotation) {
    const other = named(scheme, reading.annotation) ?? annotatedNumber(reading.annotation)
    if (other !== undefined && other !== level)
      return { problem: `"${raw.trim()}" names level ${level} and, in its annotation, ${other}` }
  }
  return { level }
}

function annotatedNumber(text: string): string | undefined {
  const reading = readLevelSpelling(text)
  return reading.kind === 'number' ? `L${reading.value}` : undefined
}
