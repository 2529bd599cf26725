import { describe, expect, it } from 'vitest'
import { chatFormatIds } from '../chat/format-registry.js'
import { modelModes } from './chat-model.js'

describe('model modes', () => {
  it('are the native wire plus every registered chat format', () => {
    expect(modelModes).toEqual(['native', ...chatFormatIds])
    expect(modelModes).toContain('qwen3.5-nothink')
  })
})
