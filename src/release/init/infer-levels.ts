/**
 * @module release/init: the level style of a grading sheet and a catalogue (pure). Numbered levels need
 * nothing; named ones need a level map, proposed from the grading sheet's order — lowest first, unless the
 * words say the sheet runs from the highest (`Secret` first, `Public` last) — and always left for the user
 * to confirm. Every distinct catalogue level is then read with that scheme; those that name no level are
 * listed, since preprocessing will refuse them.
 */
import { levelScheme, resolveLevel } from '../levels/level-scheme.js'
import { foldLevelName, readLevelSpelling } from '../levels/level-spelling.js'

const lowWords = ['public', 'open', 'unrestricted', 'general', 'unclassified', '公开', '一般', '低']
const highWords = ['secret', 'top secret', 'restricted', 'highly confidential', 'critical', 'core', '绝密', '核心', '机密', '高']

export interface LevelInference {
  /** `numbered` (L3, 三级, Level 3, …), `named` (Public, …), `mixed`, or `none` when the sheet has no level. */
  style: 'numbered' | 'named' | 'mixed' | 'none'
  /** The grading levels as the build will write them (`L1`…). */
  levels: string[]
  /** Proposed names → codes (empty for numbered levels without a name column). */
  level_map: Record<string, string>
  /** How the map was ordered, for the confirmation item. */
  order:
    | 'numbered'
    | 'name column'
    | 'sheet order, lowest first'
    | 'sheet order reversed: the sheet starts at the highest level'
    | 'none'
}

/** The grading sheet's level texts (and names, when it has a name column), in sheet order. */
export function inferGradingLevels(rows: readonly { level: string; name: string }[]): LevelInference {
  const readings = rows.filter((row) => row.level.trim()).map((row) => ({ row, reading: readLevelSpelling(row.level) }))
  if (readings.length === 0) return { style: 'none', levels: [], level_map: {}, order: 'none' }
  const numbered = readings.filter(({ reading }) => reading.kind === 'number')
  if (numbered.length === readings.length) {
    const levels = numbered.map(({ reading }) => `L${(reading as { value: number }).value}`)
    const levelMap: Record<string, string> = {}
    for (const [index, { row }] of numbered.entries())
      if (row.name.trim() && readLevelSpelling(row.name).kind === 'name') levelMap[row.name.trim()] = levels[index] as string
    return {
      style: 'numbered',
      levels,
      level_map: levelMap,
      order: Object.keys(levelMap).length > 0 ? 'name column' : 'numbered',
    }
  }
  if (numbered.length > 0) return { style: 'mixed', levels: [], level_map: {}, order: 'none' }
  const names = readings.map(({ row }) => row.level.trim())
  const folded = names.map(foldLevelName)
  const startsHigh = highWords.includes(folded[0] as string) || lowWords.includes(folded.at(-1) as string)
  const ordered = startsHigh ? [...names].reverse() : names
  const levels = ordered.map((_, index) => `L${index + 1}`)
  return {
    style: 'named',
    levels,
    level_map: Object.fromEntries(ordered.map((name, index) => [name, levels[index] as string])),
    order: startsHigh ? 'sheet order reversed: the sheet starts at the highest level' : 'sheet order, lowest first',
  }
}

export interface CatalogueLevelStyle {
  /** Kinds of spelling seen: `numbered`, `named`. */
  spellings: string[]
  /** Each distinct level text → its level under the proposed scheme. */
  read: Record<string, string>
  /** Texts the scheme reads as no level, with why (preprocessing will refuse them). */
  unreadable: { text: string; problem: string }[]
  /** Preprocess needs the grading standard (`--grading-config`): named levels, or more than four. */
  needs_grading_config: boolean
}

export function inferCatalogueLevels(values: Iterable<string>, grading: LevelInference): CatalogueLevelStyle {
  const scheme = levelScheme({ levels: grading.levels, levelMap: grading.level_map })
  const style: CatalogueLevelStyle = { spellings: [], read: {}, unreadable: [], needs_grading_config: false }
  const kinds = new Set<string>()
  for (const text of [...new Set(values)].sort()) {
    if (!text.trim()) continue
    const reading = readLevelSpelling(text)
    kinds.add(reading.kind === 'number' ? 'numbered' : 'named')
    const result = resolveLevel(text, scheme)
    if ('level' in result) style.read[text] = result.level
    else style.unreadable.push({ text, problem: result.problem })
  }
  style.spellings = [...kinds].sort()
  const defaultLevels = ['L1', 'L2', 'L3', 'L4']
  style.needs_grading_config = kinds.has('named') || Object.values(style.read).some((level) => !defaultLevels.includes(level))
  return style
}
