import { describe, expect, it } from 'vitest'
import { generationPrompt } from './task-bundle.js'

describe("the generation prompt's prefill per model family (task.json's open_think, generation_prefill)", () => {
  it('Qwen3.5 opens a think block with thinking on; Qwen3 leaves it to the model; thinking off prefills an empty one', () => {
    expect(generationPrompt('qwen3.5', true)).toEqual({ prefill: '<think>\n', openThink: true })
    expect(generationPrompt('qwen3.5', false)).toEqual({ prefill: '<think>\n\n</think>\n\n', openThink: false })
    expect(generationPrompt('qwen3.5-nothink', false)).toEqual({ prefill: '<think>\n\n</think>\n\n', openThink: false })
    // The case a bundle without these fields got wrong: reward.py read enable_thinking as "the prompt opened it".
    expect(generationPrompt('qwen3', true)).toEqual({ prefill: '', openThink: false })
    expect(generationPrompt('qwen3', false)).toEqual({ prefill: '<think>\n\n</think>\n\n', openThink: false })
  })
})
