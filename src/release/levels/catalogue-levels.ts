/**
 * @module release/levels: the catalogue's level column, read under one scheme (pure). A catalogue holds
 * few distinct level texts, so each is resolved once. Without a grading standard the scheme is L1–L4 and
 * a refusal says how to give a larger or named one.
 */
import { defaultCatalogueScheme, type LevelScheme, resolveLevel } from './level-scheme.js'

export interface CatalogueLevels {
  /** The level code ("" for an empty cell), or the problem for the message. */
  read(raw: string): string | { problem: string }
}

const defaultHint =
  ' (without --grading-config the catalogue is read as levels L1–L4: give the grading standard JSON for more levels or named ones)'

export function catalogueLevels(scheme: LevelScheme = defaultCatalogueScheme): CatalogueLevels {
  const seen = new Map<string, string | { problem: string }>()
  const hint = scheme === defaultCatalogueScheme ? defaultHint : ''
  return {
    read(raw) {
      let result = seen.get(raw)
      if (result === undefined) {
        const resolved = resolveLevel(raw, scheme)
        result =
          'level' in resolved ? resolved.level : { problem: `unsupported data level "${raw.trim()}": ${resolved.problem}${hint}` }
        if (seen.size < 10_000) seen.set(raw, result)
      }
      return result
    },
  }
}
