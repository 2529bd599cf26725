/**
 * @module release/trajectories/think: the original's cheap thought-length measure: every CJK character
 * (Han, kana, Hangul, CJK and full-width punctuation) is one token and every four other characters are
 * one more, rounded up. Deterministic, tokenizer-free, and the same in every process; `stats` reports
 * real Qwen3-tokenizer lengths next to it.
 */

const wide =
  /[\u1100-\u11ff\u2e80-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\ud840-\ud87f][\udc00-\udfff]/

function isWide(character: string): boolean {
  return wide.test(character)
}

/** Approximate tokens of `text`. */
export function thinkTokens(text: string): number {
  let wideCount = 0
  let otherCount = 0
  for (const character of text) {
    if (isWide(character)) wideCount++
    else otherCount++
  }
  return wideCount + Math.ceil(otherCount / 4)
}

/** The longest prefix of `text` (whole code points) within `limit` approximate tokens. */
export function truncateToThinkTokens(text: string, limit: number): string {
  let wideCount = 0
  let otherCount = 0
  let end = 0
  for (const character of text) {
    if (isWide(character)) wideCount++
    else otherCount++
    if (wideCount + Math.ceil(otherCount / 4) > limit) break
    end += character.length
  }
  return text.slice(0, end)
}
