import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { qwen3TokenCounter } from '../../../agent/token-counter.js'
import { SegmentTokenCounter, tokenPieces } from './segment-token-counter.js'

const parity = JSON.parse(
  readFileSync(new URL('../../../agent/__fixtures__/tokenizer-parity.json', import.meta.url), 'utf8'),
) as { cases: { text: string }[] }

// Fragments where a cut could go wrong: newlines before letters, digits, punctuation, spaces, combining
// marks, U+0085 and CR; special tokens; CJK and English words; JSON and template lines.
const fragment = fc.constantFrom(
  '\n',
  '\n\n',
  '\r\n',
  ' \n',
  '\n ',
  '\t',
  '  ',
  '\u0085',
  '\u00a0',
  '\u3000',
  '\u0301',
  'e\u0301',
  "'s",
  '<|im_start|>',
  '<|im_end|>',
  '<think>',
  '</think>',
  '<tool_call>',
  '<function=get_category_details>',
  '<parameter=choice_ids>',
  'assistant',
  'user',
  '钢卷出入库记录',
  '仓库代码',
  '{"answer": "13", "level": "L1"}',
  '["3", "7"]',
  '12345',
  'warehouse_code',
  ' the',
  '!!',
  '.',
  '😀',
)
const text = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''))

describe('SegmentTokenCounter', () => {
  it('pieces join back into the text', () => {
    fc.assert(fc.property(text, (value) => tokenPieces(value).join('') === value))
  })

  it('counts as many tokens as the tokenizer on the whole text (property, and the parity fixture)', async () => {
    const counter = await qwen3TokenCounter()
    const segmented = new SegmentTokenCounter(counter)
    fc.assert(
      fc.property(text, (value) => segmented.count(value) === counter.count(value)),
      { numRuns: 400 },
    )
    expect(parity.cases.length).toBeGreaterThan(100)
    for (const item of parity.cases)
      expect(segmented.count(item.text), JSON.stringify(item.text.slice(0, 60))).toBe(counter.count(item.text))
  })

  it('cuts after a newline only before a non-space', () => {
    expect(tokenPieces('a\nb\n c\n\nd\n')).toEqual(['a\n', 'b\n c\n\n', 'd\n'])
    expect(tokenPieces('x<|im_start|>user\nq')).toEqual(['x', '<|im_start|>user\n', 'q'])
  })
})
