import { describe, expect, it } from 'vitest'
import { dropThinkBlock, finalAnswerText } from './final-answer-text.js'

const answer = '{"answer": "3", "level": "L2"}'

describe('the answer contract (TypeScript side; the corpus holds Python to the same verdicts)', () => {
  it('drops the first think block; an open block that never closes leaves nothing', () => {
    expect(dropThinkBlock(`coil\n</think>\n\n${answer}`, true)).toBe(answer)
    expect(dropThinkBlock(`<think>\ncoil\n</think>\n\n${answer}`)).toBe(answer)
    expect(dropThinkBlock(`coil ${answer}`, true)).toBe('')
    expect(dropThinkBlock(`<think>\ncoil ${answer}`)).toBe('')
    expect(dropThinkBlock(answer)).toBe(answer)
  })

  it('keeps what is not the answer: fences, prose, a second object, tool-call markup', () => {
    expect(finalAnswerText(`\`\`\`json\n${answer}\n\`\`\``)).toBe(`\`\`\`json\n${answer}\n\`\`\``)
    expect(finalAnswerText(`${answer}\n${answer}`)).toBe(`${answer}\n${answer}`)
    const call = `<tool_call>\n<function=final_response>\n<parameter=content>\n${answer}\n</parameter>\n</function>\n</tool_call>`
    expect(finalAnswerText(call)).toBe(call)
  })

  it("strips end markers and Python's whitespace (U+001C and U+3000, not U+FEFF)", () => {
    expect(finalAnswerText(`\x1c\u3000${answer}\u00a0<|im_end|>\n<|endoftext|>`)).toBe(answer)
    expect(finalAnswerText(`\ufeff${answer}`)).toBe(`\ufeff${answer}`)
  })

  it('reads the last turn of a decoded multi-turn response, the generation prefill dropped', () => {
    const prefill = '<think>\n\n</think>\n\n'
    const special = `<tool_call>x</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n{}\n</tool_response><|im_end|>\n<|im_start|>assistant\n${prefill}<think>own</think>${answer}<|im_end|>`
    expect(finalAnswerText(special, { prefill })).toBe(answer)
    const plain = `<tool_call>x</tool_call>\nuser\n<tool_response>\n{}\n</tool_response>\nassistant\n<think>\nr\n</think>\n\n${answer}`
    expect(finalAnswerText(plain, { openThink: true, prefill: '<think>\n' })).toBe(answer)
    expect(finalAnswerText('<tool_call>x</tool_call>\nuser\n<tool_response>\n{}\n</tool_response>\n')).toBe('')
  })
})
