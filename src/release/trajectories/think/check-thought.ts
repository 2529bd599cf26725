/**
 * @module release/trajectories/think: what a thought may contain. It becomes `reasoning_content`, which
 * the template renders inside `<think>…</think>`, so it must not contain chat-template or think/tool tags,
 * must be closed (its `{}` and `[]` nest and balance) and must not leak the answer's shape (`"answer":`,
 * `"level":` or `{"answer"` lookalikes, in any quotes, full-width colons included). Thoughts are stripped
 * of surrounding whitespace first, as the template's `|trim` would.
 */
import { pythonStrip } from '../../../core/python/python-text.js'
import type { ThinkOverLimitPolicy } from '../trajectory-format.js'
import { thinkTokens, truncateToThinkTokens } from './think-tokens.js'

export interface ThoughtProblem {
  code: 'think_template_token' | 'think_unbalanced' | 'think_answer_leak' | 'think_too_long'
  message: string
}

const forbiddenTokens = [
  '<think>',
  '</think>',
  '<|im_start|>',
  '<|im_end|>',
  '<|endoftext|>',
  '<tool_call>',
  '</tool_call>',
  '<tool_response>',
  '</tool_response>',
]
const quote = `["'\u201c\u201d\u2018\u2019\uff02\uff07\`]`
const answerKey = new RegExp(`${quote}\\s*(?:answer|level)\\s*${quote}\\s*[:\uff1a]|[{\uff5b]\\s*${quote}?\\s*answer\\b`, 'i')

/** Where brackets stop balancing, or -1 when `{}` and `[]` nest and close. */
export function unbalancedAt(text: string): number {
  const stack: string[] = []
  for (let index = 0; index < text.length; index++) {
    const character = text[index]
    if (character === '{' || character === '[') stack.push(character === '{' ? '}' : ']')
    else if (character === '}' || character === ']') {
      if (stack.pop() !== character) return index
    }
  }
  return stack.length === 0 ? -1 : text.length
}

/** The longest prefix whose brackets balance. */
function balancedPrefix(text: string): string {
  let depth = 0
  let lastBalanced = 0
  const stack: string[] = []
  for (let index = 0; index < text.length; index++) {
    const character = text[index]
    if (character === '{' || character === '[') {
      stack.push(character === '{' ? '}' : ']')
      depth++
    } else if (character === '}' || character === ']') {
      if (stack.pop() !== character) break
      depth--
    }
    if (depth === 0) lastBalanced = index + 1
  }
  return text.slice(0, lastBalanced)
}

const noProblems: readonly ThoughtProblem[] = Object.freeze([])
/** Cheap pre-checks (validate runs these on every turn of every row): most thoughts need no closer look. */
const mayHoldToken = /[<]/
const mayHoldBracket = /[{}[\]]/
const mayLeak = /answer|level/i

export function thoughtProblems(text: string): readonly ThoughtProblem[] {
  if (text === '') return noProblems
  const problems: ThoughtProblem[] = []
  const token = mayHoldToken.test(text) ? forbiddenTokens.find((candidate) => text.includes(candidate)) : undefined
  if (token) problems.push({ code: 'think_template_token', message: `contains ${token}` })
  const at = mayHoldBracket.test(text) ? unbalancedAt(text) : -1
  if (at >= 0) problems.push({ code: 'think_unbalanced', message: `brackets do not balance (at character ${at})` })
  const leak = mayLeak.test(text) ? answerKey.exec(text) : null
  if (leak) problems.push({ code: 'think_answer_leak', message: `contains the answer's shape ${JSON.stringify(leak[0])}` })
  return problems.length === 0 ? noProblems : problems
}

export interface PreparedThought {
  text: string
  tokens: number
  truncated: boolean
  discarded: boolean
  problems: ThoughtProblem[]
}

/** A thought as it goes into a row: stripped, held to `maxTokens` by `policy`, then checked. */
export function prepareThought(raw: string, options: { maxTokens: number; policy: ThinkOverLimitPolicy }): PreparedThought {
  let text = pythonStrip(raw)
  let tokens = thinkTokens(text)
  let truncated = false
  let discarded = false
  const problems: ThoughtProblem[] = []
  if (tokens > options.maxTokens) {
    if (options.policy === 'error') {
      problems.push({ code: 'think_too_long', message: `${tokens} approximate tokens, over the limit of ${options.maxTokens}` })
    } else if (options.policy === 'discard') {
      text = ''
      discarded = true
    } else {
      text = pythonStrip(balancedPrefix(truncateToThinkTokens(text, options.maxTokens)))
      truncated = true
    }
    tokens = thinkTokens(text)
  }
  problems.push(...thoughtProblems(text))
  return { text, tokens, truncated, discarded, problems }
}
