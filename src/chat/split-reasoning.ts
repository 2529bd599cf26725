/**
 * @module chat: separates a `<think>…</think>` block from model text, as the Qwen templates read it back
 * (`content.split('</think>')[0].split('<think>')[-1]`) and vLLM's qwen3 reasoning parser splits it.
 */

import { pythonStrip } from '../core/python/python-text.js'
import type { ParseIssue } from './chat-format.js'

export interface ReasoningSplit {
  reasoning: string | null
  /** The text after the think block, leading newlines removed. */
  rest: string
  issues: ParseIssue[]
}

const open = '<think>'
const close = '</think>'

/**
 * `openThink`: the prompt already opened the block, so the text starts as reasoning.
 * Without a closing tag the whole text is reasoning (the model ran out or never closed it).
 */
export function splitReasoning(text: string, openThink = false): ReasoningSplit {
  const closeAt = text.indexOf(close)
  if (closeAt === -1) {
    const openAt = text.indexOf(open)
    const starts = openAt !== -1 && text.slice(0, openAt).trim() === ''
    if (openThink || starts) {
      const reasoning = openThink ? text : text.slice(openAt + open.length)
      return {
        reasoning: pythonStrip(reasoning, 'strip', '\n'),
        rest: '',
        issues: [
          { code: 'unterminated_think', message: 'The think block is never closed; everything after it is read as reasoning.' },
        ],
      }
    }
    return { reasoning: null, rest: text, issues: [] }
  }
  const before = text.slice(0, closeAt)
  const openAt = before.lastIndexOf(open)
  const reasoning = openAt === -1 ? before : before.slice(openAt + open.length)
  const issues: ParseIssue[] = []
  if (openAt === -1 && !openThink && before.trim() !== '') {
    issues.push({ code: 'stray_tag', message: 'Text before </think> without an opening <think> was read as reasoning.' })
  }
  if (openAt > 0 && before.slice(0, openAt).trim() !== '') {
    issues.push({ code: 'stray_tag', message: 'Text before <think> was dropped.' })
  }
  const rest = text.slice(closeAt + close.length)
  return { reasoning: pythonStrip(reasoning, 'strip', '\n'), rest: pythonStrip(rest, 'lstrip', '\n'), issues }
}
