/**
 * @module release/trajectories/stats: token counts of rendered conversations, one piece at a time. The
 * Qwen3 tokenizer splits special tokens out first, then pre-tokenizes with a regex whose matches never
 * run from a newline into a following non-space character (the only matches that hold a newline end at
 * it), and no token spans two pre-tokens; NFC never composes across a newline. So a text cut before each
 * `<|im_start|>` and after each newline followed by a non-space has as many tokens as the sum of its
 * pieces (a property test checks it against the whole-text count). Pieces repeat across rows (the system
 * prompt with the tools, template lines, tool results, JSON lines), so each distinct piece is encoded once.
 */
import type { TokenCounter } from '../../../agent/token-counter.js'

const turnStart = '<|im_start|>'
/** What the tokenizer's `\s` may take after a newline (JavaScript's `\s` lacks U+0085). */
const spaceAfterNewline = /[\s\u0085]/

/** The text cut before every `<|im_start|>` (the pieces join back into `text`). */
export function turnPieces(text: string): string[] {
  const pieces: string[] = []
  let start = 0
  for (let at = text.indexOf(turnStart, 1); at !== -1; at = text.indexOf(turnStart, at + 1)) {
    pieces.push(text.slice(start, at))
    start = at
  }
  pieces.push(text.slice(start))
  return pieces
}

/** `turnPieces`, each cut again after every newline that a non-space follows (the pieces join back). */
export function tokenPieces(text: string): string[] {
  const pieces: string[] = []
  for (const turn of turnPieces(text)) {
    let start = 0
    for (let at = turn.indexOf('\n'); at !== -1 && at + 1 < turn.length; at = turn.indexOf('\n', at + 1)) {
      if (spaceAfterNewline.test(turn[at + 1] as string)) continue
      pieces.push(turn.slice(start, at + 1))
      start = at + 1
    }
    pieces.push(turn.slice(start))
  }
  return pieces
}

export class SegmentTokenCounter {
  private readonly cache = new Map<string, number>()

  constructor(private readonly counter: TokenCounter) {}

  count(text: string): number {
    let total = 0
    for (const piece of tokenPieces(text)) {
      let tokens = this.cache.get(piece)
      if (tokens === undefined) {
        tokens = this.counter.count(piece)
        if (this.cache.size < 1 << 19) this.cache.set(piece, tokens)
      }
      total += tokens
    }
    return total
  }
}
