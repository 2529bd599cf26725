/**
 * @module envs/grading: the dependency-free lexical features the category search scores with, as the
 * original computes them: ASCII tokens, single CJK characters and every character bigram of the
 * whitespace-free key text (all by code point).
 */
import { codePointLength, collapseWhitespace, normalizeKeyText, pythonStrip } from '../../../core/python/python-text.js'

const asciiToken = /[a-z0-9]+/g
const cjkCharacter = /[\u3400-\u4dbf\u4e00-\u9fff]/g

/** The feature set of `value` (normalised first, like the original's `_features`). */
export function lexicalFeatures(value: string): Set<string> {
  const normalized = normalizeKeyText(value)
  const features = new Set<string>()
  for (const token of normalized.match(asciiToken) ?? []) features.add(token)
  for (const character of normalized.match(cjkCharacter) ?? []) features.add(character)
  const compact = Array.from(normalized.replaceAll(' ', ''))
  if (compact.length === 1) features.add(compact[0] as string)
  for (let index = 0; index + 1 < compact.length; index++) features.add(`${compact[index]}${compact[index + 1]}`)
  return features
}

/** Whitespace-collapsed text cut to `limit` code points with a trailing ellipsis (the original's `_short`). */
export function shortSummary(value: string, limit = 240): string {
  const normalized = collapseWhitespace(pythonStrip(value))
  if (codePointLength(normalized) <= limit) return normalized
  return `${Array.from(normalized)
    .slice(0, limit - 1)
    .join('')}…`
}
