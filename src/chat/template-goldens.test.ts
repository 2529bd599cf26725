/**
 * Byte identity with the official templates: 240 generated conversations (tools, several tool calls per
 * turn, reasoning, unicode, empty and null content, JSON-string arguments) rendered by Python jinja2 the
 * way transformers configures it (`__fixtures__/make-template-goldens.py`), for qwen3, qwen3.5 and
 * qwen3.5-nothink, compared with our renderers; and with the same templates run by a plain
 * @huggingface/jinja Template wherever that engine agrees with Python (where it does not, we match Python).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Template } from '@huggingface/jinja'
import { describe, expect, it } from 'vitest'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { pythonStrip } from '../core/python/python-text.js'
import type { ChatMessage, ChatTool } from './chat-message.js'
import { chatFormat } from './format-registry.js'
import { qwen35NothinkTemplate } from './templates/qwen3-5-nothink-template.js'
import { qwen35ThinkTemplate } from './templates/qwen3-5-think-template.js'
import { qwen3Template } from './templates/qwen3-template.js'

interface Case {
  id: number
  messages: ChatMessage[]
  tools: ChatTool[]
  add_generation_prompt: boolean
  enable_thinking?: boolean
}
type Golden = { sha256: string; length: number; text?: string } | { error: string; message: string }

const goldens = JSON.parse(readFileSync(new URL('./__fixtures__/template-goldens.json', import.meta.url), 'utf8')) as {
  conversations: Case[]
  renders: Record<string, Golden[]>
  error_cases: (Omit<Case, 'id'> & { id: string })[]
  errors: Record<string, { id: string; error: string | null }[]>
}
const templateFiles: Record<string, string> = {
  qwen3: 'qwen3.jinja',
  'qwen3.5': 'qwen3_5_think.jinja',
  'qwen3.5-nothink': 'qwen3_5_nothink.jinja',
}
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

function renderCase(formatId: string, item: Omit<Case, 'id'>): string {
  return chatFormat(formatId).render({
    messages: item.messages,
    tools: item.tools,
    addGenerationPrompt: item.add_generation_prompt,
    ...(item.enable_thinking === undefined ? {} : { enableThinking: item.enable_thinking }),
  })
}

describe('official chat templates, byte for byte', () => {
  it('the fixture covers at least 200 conversations with the features that matter', () => {
    const cases = goldens.conversations
    expect(cases.length).toBeGreaterThanOrEqual(200)
    const assistants = cases.flatMap((item) => item.messages.filter((message) => message.role === 'assistant'))
    expect(cases.filter((item) => item.tools.length > 0).length).toBeGreaterThan(100)
    expect(assistants.filter((message) => (message.tool_calls?.length ?? 0) > 1).length).toBeGreaterThan(50)
    expect(assistants.filter((message) => typeof message.reasoning_content === 'string').length).toBeGreaterThan(50)
    expect(assistants.filter((message) => message.content?.includes('</think>')).length).toBeGreaterThan(20)
    expect(assistants.filter((message) => message.content === null || message.content === '').length).toBeGreaterThan(50)
    expect(cases.filter((item) => /[\u0080-\u{10ffff}]/u.test(JSON.stringify(item.messages))).length).toBeGreaterThan(100)
    expect(new Set(cases.map((item) => item.enable_thinking)).size).toBe(3)
  })

  for (const formatId of Object.keys(templateFiles)) {
    it(`${formatId}: every conversation renders exactly as Python jinja2 renders the official template`, () => {
      const expected = goldens.renders[formatId] as Golden[]
      let compared = 0
      let errors = 0
      goldens.conversations.forEach((item, index) => {
        const golden = expected[index] as Golden
        if ('error' in golden) {
          expect(() => renderCase(formatId, item), `case ${item.id}`).toThrow(ReleaseOpsError)
          errors++
          return
        }
        const text = renderCase(formatId, item)
        if (golden.text !== undefined) expect(text, `case ${item.id}`).toBe(golden.text)
        expect({ id: item.id, sha256: sha256(text), length: Buffer.byteLength(text) }).toEqual({
          id: item.id,
          sha256: golden.sha256,
          length: golden.length,
        })
        compared++
      })
      expect(compared).toBeGreaterThanOrEqual(200)
      if (formatId === 'qwen3') expect(errors).toBe(0)
    })

    it(`${formatId}: the template's own errors are coded errors`, () => {
      goldens.error_cases.forEach((item, index) => {
        const golden = goldens.errors[formatId]?.[index]
        if (golden?.error === null) {
          expect(() => renderCase(formatId, item)).not.toThrow()
          return
        }
        try {
          renderCase(formatId, item)
          expect.unreachable(`case ${item.id} should fail`)
        } catch (error) {
          expect(ReleaseOpsError.isInstance(error) && error.code).toBe('template_error')
          expect((error as Error).message).toContain(golden?.error)
        }
      })
    })
  }

  it('a plain @huggingface/jinja render of the official template agrees wherever its string methods match Python', () => {
    const source = readFileSync(new URL('./__fixtures__/templates/qwen3_5_think.jinja', import.meta.url), 'utf8')
    const plain = new Template(source)
    let agreed = 0
    for (const item of goldens.conversations) {
      const hasEdgeWhitespace = item.messages.some(
        (message) => typeof message.content === 'string' && pythonStrip(message.content) !== message.content.trim(),
      )
      const scalarArguments = item.messages.some((message) =>
        message.role === 'assistant'
          ? (message.tool_calls ?? []).some(
              (call) =>
                typeof call.function.arguments === 'string' ||
                Object.values(call.function.arguments).some((value) => value === null || typeof value !== 'string'),
            )
          : false,
      )
      if (hasEdgeWhitespace || scalarArguments) continue
      const context: Record<string, unknown> = {
        messages: item.messages,
        tools: item.tools.length > 0 ? item.tools : null,
        add_generation_prompt: item.add_generation_prompt,
      }
      if (item.enable_thinking !== undefined) context.enable_thinking = item.enable_thinking
      expect(renderCase('qwen3.5', item), `case ${item.id}`).toBe(plain.render(context))
      agreed++
    }
    expect(agreed).toBeGreaterThan(15)
  })

  it('the shipped template constants are the fixture files, byte for byte', () => {
    const shipped: Record<string, string> = {
      qwen3: qwen3Template,
      'qwen3.5': qwen35ThinkTemplate,
      'qwen3.5-nothink': qwen35NothinkTemplate,
    }
    for (const [formatId, file] of Object.entries(templateFiles)) {
      const bytes = readFileSync(new URL(`./__fixtures__/templates/${file}`, import.meta.url), 'utf8')
      expect(shipped[formatId], formatId).toBe(bytes)
    }
    expect(sha256(qwen3Template)).toBe('a55ee1b1660128b7098723e0abcd92caa0788061051c62d51cbe87d9cf1974d8')
  })
})
