import { describe, expect, it } from 'vitest'
import { chatFormat, chatFormatIds, isChatFormatId } from './format-registry.js'

describe('format registry', () => {
  it('lists the format ids of docs/architecture.md §2.3, each naming the format registered under it', () => {
    expect(chatFormatIds).toEqual(['qwen3', 'qwen3.5', 'qwen3.5-nothink', 'json-tool-calls'])
    for (const id of chatFormatIds) expect(chatFormat(id).id).toBe(id)
  })

  it('an unknown id is a coded error', () => {
    expect(isChatFormatId('qwen4')).toBe(false)
    expect(() => chatFormat('qwen4')).toThrow(expect.objectContaining({ code: 'unknown_chat_format' }))
  })
})
