/**
 * What a thought may hold, and how an over-long one is held to the limit: template and tool tags, brackets
 * that do not close, answer lookalikes in any quotes (full-width included), the approximate token measure
 * (CJK = 1, four other characters = 1) and truncation to a balanced prefix.
 */
import { describe, expect, it } from 'vitest'
import { prepareThought, thoughtProblems, unbalancedAt } from './check-thought.js'
import { thinkTokens, truncateToThinkTokens } from './think-tokens.js'

const codes = (text: string) => thoughtProblems(text).map((problem) => problem.code)

describe('thought checks', () => {
  it('accepts plain reasoning, including brackets that close and the words answer and level', () => {
    expect(codes('')).toEqual([])
    expect(codes('The level of detail [of this field] suggests {a table of codes}; my answer follows.')).toEqual([])
    expect(codes('字段名称看起来像质量检验数据。')).toEqual([])
  })

  it('refuses template and tool tags, unbalanced brackets and answer lookalikes', () => {
    expect(codes('think more </think> here')).toEqual(['think_template_token'])
    expect(codes('<|im_end|>')).toEqual(['think_template_token'])
    expect(codes('<tool_call>')).toEqual(['think_template_token'])
    expect(codes('a { b')).toEqual(['think_unbalanced'])
    expect(codes('a ] b')).toEqual(['think_unbalanced'])
    expect(unbalancedAt('[{]}')).toBe(2)
    expect(codes('then "answer": 3')).toEqual(['think_answer_leak'])
    expect(codes("so 'Level' : L2")).toEqual(['think_answer_leak'])
    expect(codes('“level”：L2')).toEqual(['think_answer_leak'])
    expect(codes('{answer is 3}')).toEqual(['think_answer_leak'])
    expect(codes('{"answer": "3", "level": "L2"')).toEqual(['think_unbalanced', 'think_answer_leak'])
  })

  it('counts approximate tokens: one per CJK character, one per four other characters, rounded up', () => {
    expect(thinkTokens('')).toBe(0)
    expect(thinkTokens('abcd')).toBe(1)
    expect(thinkTokens('abcde')).toBe(2)
    expect(thinkTokens('钢铁')).toBe(2)
    expect(thinkTokens('钢 a')).toBe(2)
    expect(thinkTokens('𠀀')).toBe(1)
    expect(truncateToThinkTokens('abcdefgh钢', 2)).toBe('abcdefgh')
    expect(truncateToThinkTokens('钢铁abc', 2)).toBe('钢铁')
  })

  it('holds a thought to the limit by policy: error, truncate (balanced prefix) or discard', () => {
    const long = `  ${'word '.repeat(40)}[closing remark]  `
    expect(prepareThought(long, { maxTokens: 100, policy: 'error' })).toMatchObject({
      truncated: false,
      discarded: false,
      problems: [],
    })
    expect(prepareThought(long, { maxTokens: 100, policy: 'error' }).text).toBe(long.trim())
    expect(prepareThought(long, { maxTokens: 10, policy: 'error' }).problems.map((problem) => problem.code)).toEqual([
      'think_too_long',
    ])
    expect(prepareThought(long, { maxTokens: 10, policy: 'discard' })).toMatchObject({
      text: '',
      tokens: 0,
      discarded: true,
      problems: [],
    })
    const cut = prepareThought(`${'word '.repeat(8)}[a long bracketed remark that does not fit]`, {
      maxTokens: 12,
      policy: 'truncate',
    })
    expect(cut).toMatchObject({ truncated: true, problems: [] })
    expect(cut.text).toBe('word word word word word word word word')
    expect(cut.tokens).toBeLessThanOrEqual(12)
  })
})
