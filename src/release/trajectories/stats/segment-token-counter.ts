/**
 * @module release/trajectories/stats: token counts of rendered conversations, one turn at a time. A
 * tokenizer splits special tokens out before anything else, so a text cut right before each
 * `<|im_start|>` has as many tokens as the sum of its pieces; pieces repeat across rows (the system
 * prompt with the tools, tool results, templated turns), so each distinct piece is encoded once.
 */
import type { TokenCounter } from '../../../agent/token-counter.js'

const turnStart = '<|im_start|>'

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

export class SegmentTokenCounter {
  private readonly cache = new Map<string, number>()

  constructor(private readonly counter: TokenCounter) {}

  count(text: string): number {
    let total = 0
    for (const piece of turnPieces(text)) {
      let tokens = this.cache.get(piece)
      if (tokens === undefined) {
        tokens = this.counter.count(piece)
        if (this.cache.size < 1 << 18) this.cache.set(piece, tokens)
      }
      total += tokens
    }
    return total
  }
}
