/**
 * VeRL compatibility of a trajectory release: every row, as read back from Parquet, rendered with the
 * official Qwen3.5 template (`@huggingface/jinja`, with the row's tools and thinking flag). Rendering the
 * conversation message by message (each message's span = what its prefix adds) must give exactly the full
 * rendering, and the loss-masked spans (assistant spans minus the generation prompt) must cover exactly the
 * assistant turns: their tool calls, reasoning and answers, and nothing of system, user or tool text.
 */
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ChatMessage, ChatTool } from '../src/chat/chat-message.js'
import { chatFormat } from '../src/chat/format-registry.js'
import { renderTrainingSpans } from '../src/release/trajectories/render/render-training-spans.js'
import { runTrajectoryExport } from '../src/release/trajectories/run-trajectory-export.js'
import type { TrajectoryMessage, TrajectoryRow } from '../src/release/trajectories/trajectory-row.js'
import { readSplit, type TrajectoryFixture, trajectoryFixture } from './release-trajectories-fixture.js'
import { temporaryDirectory } from './support/release-fixture.js'

let fixture: TrajectoryFixture
const releases: Record<string, string> = {}
const format = chatFormat('qwen3.5')

beforeAll(async () => {
  fixture = await trajectoryFixture({ rows: 160 })
  const work = temporaryDirectory('trajectories-verl')
  for (const thinkSource of ['mock', 'none']) {
    releases[thinkSource] = join(work, thinkSource)
    await runTrajectoryExport({
      ...fixture.taskOptions,
      canonical: fixture.canonical,
      outputDir: releases[thinkSource] as string,
      thinkSource,
    })
  }
})

function checkRow(row: TrajectoryRow): void {
  const rendered = renderTrainingSpans({
    format,
    messages: row.messages as ChatMessage[],
    tools: row.tools as unknown as ChatTool[],
    enableThinking: row.enable_thinking,
  })
  const { text, spans } = rendered
  // The spans tile the text: message-by-message rendering equals the full rendering.
  expect(spans.map((span) => text.slice(span.start, span.end)).join('')).toBe(text)
  expect(spans[0]).toMatchObject({ role: 'prompt', first: 0, last: 1, start: 0 })
  expect(text.startsWith('<|im_start|>system\n# Tools\n\nYou have access to the following functions:\n\n<tools>')).toBe(true)
  expect(spans.slice(1).map((span) => span.role)).toEqual(row.messages.slice(2).map((message) => message.role))
  const loss = spans.filter((span) => span.lossStart < span.end)
  expect(loss.map((span) => span.first)).toEqual(
    row.messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : [])),
  )
  for (const span of spans) {
    const message = row.messages[span.first] as TrajectoryMessage
    const piece = text.slice(span.start, span.end)
    if (span.role !== 'assistant') {
      expect(span.lossStart).toBe(span.end)
      if (span.role === 'tool') expect(piece).toContain(`<tool_response>\n${message.content}\n</tool_response>`)
      continue
    }
    const assistant = message as Extract<TrajectoryMessage, { role: 'assistant' }>
    // The generation prompt (masked) is what the model is prompted with; the rest of the turn is trained.
    const generationPrompt = row.enable_thinking
      ? '<|im_start|>assistant\n<think>\n'
      : '<|im_start|>assistant\n<think>\n\n</think>\n\n'
    expect(text.slice(span.start, span.lossStart)).toBe(generationPrompt)
    const trained = text.slice(span.lossStart, span.end)
    expect(trained.endsWith('<|im_end|>\n')).toBe(true)
    if (row.enable_thinking) expect(trained.startsWith(`${assistant.reasoning_content}\n</think>\n\n`)).toBe(true)
    else expect(assistant.reasoning_content).toBe('')
    const call = assistant.tool_calls?.[0]
    if (call) {
      expect(trained).toContain(`<tool_call>\n<function=${call.function.name}>\n`)
      for (const [name, value] of Object.entries(call.function.arguments)) {
        const shown = typeof value === 'string' ? value : JSON.stringify(value).replaceAll(',', ', ')
        expect(trained).toContain(`<parameter=${name}>\n${shown}\n</parameter>`)
      }
      expect(trained).not.toContain('None')
      expect(trained).not.toContain('null')
    } else {
      expect(trained).toContain(assistant.content)
      expect(trained).toMatch(/\{"answer": "\d+", "level": "L\d"\}<\|im_end\|>\n$/)
    }
  }
}

describe('every row renders prefix-preserving with the official Qwen3.5 template', () => {
  for (const thinkSource of ['mock', 'none']) {
    it(`${thinkSource} thoughts: spans join into the full rendering and the loss covers exactly the assistant turns`, () => {
      let rows = 0
      const classes = new Set<string>()
      for (const split of ['train', 'val', 'test']) {
        for (const raw of readSplit(releases[thinkSource] as string, split, fixture.task)) {
          const row = raw as TrajectoryRow
          checkRow(row)
          classes.add(row.trajectory_class)
          rows++
        }
      }
      expect(rows).toBeGreaterThan(120)
      expect(classes).toEqual(new Set(['direct', 'single_tool', 'multi_tool', 'no_result']))
    })
  }

  it('with thinking disabled the empty think block is part of the (masked) prompt, as enable_thinking=false prompts it', () => {
    const row = readSplit(releases.none as string, 'val', fixture.task)[0] as TrajectoryRow
    expect(row.enable_thinking).toBe(false)
    const rendered = renderTrainingSpans({
      format,
      messages: row.messages as ChatMessage[],
      tools: row.tools as unknown as ChatTool[],
      enableThinking: false,
    })
    const last = rendered.spans.at(-1) as (typeof rendered.spans)[number]
    expect(
      rendered.text.slice(last.start, last.end).startsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n{"answer": '),
    ).toBe(true)
    expect(rendered.text.slice(last.lossStart, last.end).startsWith('{"answer": ')).toBe(true)
  })
})
