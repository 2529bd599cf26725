/**
 * @module chat: finds `<tool_call>…</tool_call>` blocks in model text. Shared by the Hermes-JSON (qwen3)
 * and XML (qwen3.5) parsers; an unterminated last block is accepted (as vLLM's parsers do) and reported.
 */
import type { ParseIssue } from './chat-format.js'

export interface ToolCallBlocks {
  /** Text before the first block. */
  before: string
  bodies: string[]
  issues: ParseIssue[]
}

const open = '<tool_call>'
const close = '</tool_call>'

export function findToolCallBlocks(text: string): ToolCallBlocks {
  const issues: ParseIssue[] = []
  const first = text.indexOf(open)
  if (first === -1) {
    if (text.includes(close))
      issues.push({ code: 'stray_tag', message: 'A </tool_call> without an opening <tool_call> was ignored.' })
    return { before: text, bodies: [], issues }
  }
  const bodies: string[] = []
  let position = first
  while (position !== -1) {
    const start = position + open.length
    const end = text.indexOf(close, start)
    const nextOpen = text.indexOf(open, start)
    if (end === -1 || (nextOpen !== -1 && nextOpen < end)) {
      const stop = nextOpen === -1 ? text.length : nextOpen
      bodies.push(text.slice(start, stop))
      issues.push({
        code: 'unterminated_tool_call',
        message: `Tool call ${bodies.length - 1} has no </tool_call>; it was read up to ${nextOpen === -1 ? 'the end' : 'the next <tool_call>'}.`,
        path: `tool_calls.${bodies.length - 1}`,
        repaired: true,
      })
      position = nextOpen
      continue
    }
    bodies.push(text.slice(start, end))
    const after = end + close.length
    const next = text.indexOf(open, after)
    const between = text.slice(after, next === -1 ? text.length : next)
    if (between.trim() !== '') {
      issues.push({
        code: 'text_after_tool_call',
        message: `Text after tool call ${bodies.length - 1} was ignored: ${JSON.stringify(between.trim().slice(0, 80))}.`,
        path: `tool_calls.${bodies.length - 1}`,
      })
    }
    position = next
  }
  return { before: text.slice(0, first), bodies, issues }
}

/** Content before the first call: the one newline the templates put before a call is dropped; blank is null. */
export function contentBeforeCalls(before: string, hadCalls: boolean, separator: string): string | null {
  let content = before
  if (hadCalls && content.endsWith(separator)) content = content.slice(0, -separator.length)
  return content.trim() === '' ? null : content
}
