/**
 * @module release/trajectories/stats: renders conversations with the official template once per shape.
 * Rows of a release differ mostly in their text (field names, tool results, thoughts), not in their
 * structure. A row's shape is the row with each plain string replaced by a numbered placeholder; the
 * template renders a shape once, and a row is that output with the placeholders replaced by its strings.
 *
 * What makes a string plain comes from what the Qwen3.5 templates do with strings: they trim contents and
 * test them for emptiness, `</think>` and `<tool_response>` … `</tool_response>`, and write them as they
 * are; string tool-call arguments are written as they are, strings inside list or object arguments as JSON.
 * So a plain string is non-empty, has no Python whitespace at either end, holds none of those tags and no
 * placeholder character; inside a list or object argument it also reads the same as JSON. Any other string
 * (and every role, `type`, key and non-string value) stays in the shape as it is. The first row of each
 * shape and every `checkEvery`-th row are also rendered whole and compared: a difference is an error
 * (`render_shortcut_mismatch`), never a silent count.
 */
import type { ChatFormat } from '../../../chat/chat-format.js'
import type { ChatMessage, ChatTool } from '../../../chat/chat-message.js'
import { ReleaseOpsError } from '../../../core/errors/release-ops-error.js'
import { pythonStrip } from '../../../core/python/python-text.js'

export interface RenderedRow {
  messages: readonly ChatMessage[]
  tools: readonly ChatTool[] | null
  enableThinking?: boolean
}

const open = '\uE000'
const close = '\uE001'
const placeholder = /\uE000(\d+)\uE001/
const tags = ['<think>', '</think>', '<tool_response>', '</tool_response>']

/** A shape's rendered text cut at its placeholders: `literals[i]`, slot `slots[i]`, …, the last literal. */
interface CompiledShape {
  literals: string[]
  slots: number[]
}

/** Builds a row's shape, collecting its plain strings in order; `null` when the row holds a placeholder character. */
class ShapeBuilder {
  readonly strings: string[] = []
  sentinel = false

  private slot(text: string, asJson: boolean): string {
    if (text.includes(open) || text.includes(close)) this.sentinel = true
    const plain =
      text !== '' &&
      pythonStrip(text) === text &&
      !tags.some((tag) => text.includes(tag)) &&
      (!asJson || JSON.stringify(text).length === text.length + 2)
    if (!plain) return text
    this.strings.push(text)
    return `${open}${this.strings.length - 1}${close}`
  }

  /** A JSON value: strings inside lists and objects are written as JSON by the template. */
  value(item: unknown, asJson: boolean): unknown {
    if (typeof item === 'string') return this.slot(item, asJson)
    if (Array.isArray(item)) return item.map((entry) => this.value(entry, true))
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([key, entry]) => [this.literal(key), this.value(entry, true)]))
    }
    return item
  }

  literal(text: string): string {
    if (text.includes(open) || text.includes(close)) this.sentinel = true
    return text
  }

  message(message: ChatMessage): ChatMessage {
    const shaped: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(message)) {
      if (key === 'tool_calls' && Array.isArray(item)) shaped[key] = item.map((call) => this.toolCall(call))
      else if (key === 'role' || typeof item !== 'string') shaped[key] = typeof item === 'string' ? this.literal(item) : item
      else shaped[key] = this.slot(item, false)
    }
    return shaped as ChatMessage
  }

  private toolCall(call: NonNullable<Extract<ChatMessage, { role: 'assistant' }>['tool_calls']>[number]): unknown {
    const { name, arguments: args } = call.function
    const shapedArgs =
      typeof args === 'string'
        ? this.literal(args)
        : Object.fromEntries(Object.entries(args).map(([key, entry]) => [this.literal(key), this.value(entry, false)]))
    return {
      ...(call.id === undefined ? {} : { id: this.slot(call.id, false) }),
      ...(call.type === undefined ? {} : { type: call.type }),
      function: { name: this.slot(name, false), arguments: shapedArgs },
    }
  }
}

export class ShapeRenderer {
  private readonly shapes = new Map<string, CompiledShape>()
  private rendered = 0

  constructor(
    private readonly format: ChatFormat,
    private readonly tools: readonly ChatTool[],
    private readonly checkEvery = 256,
    private readonly maxShapes = 1 << 14,
  ) {}

  private mismatch(): ReleaseOpsError {
    return new ReleaseOpsError({
      code: 'render_shortcut_mismatch',
      message: `Rendering a conversation's shape once gave a different text than the ${this.format.id} template for the whole conversation; stats would be wrong.`,
    })
  }

  private whole(row: RenderedRow): string {
    return this.format.render({
      messages: row.messages,
      tools: row.tools,
      addGenerationPrompt: false,
      ...(row.enableThinking === undefined ? {} : { enableThinking: row.enableThinking }),
    })
  }

  private compile(text: string): CompiledShape {
    const parts = text.split(placeholder)
    const literals: string[] = []
    const slots: number[] = []
    for (let at = 0; at < parts.length; at++) {
      if (at % 2 === 0) literals.push(parts[at] as string)
      else slots.push(Number(parts[at]))
    }
    return { literals, slots }
  }

  render(row: RenderedRow): string {
    if (row.tools !== this.tools) return this.whole(row)
    const builder = new ShapeBuilder()
    const messages = row.messages.map((message) => builder.message(message))
    if (builder.sentinel) return this.whole(row)
    const key = JSON.stringify([row.enableThinking ?? null, messages])
    let shape = this.shapes.get(key)
    const known = shape !== undefined
    if (shape === undefined) {
      if (this.shapes.size >= this.maxShapes) return this.whole(row)
      shape = this.compile(this.whole({ ...row, messages }))
      this.shapes.set(key, shape)
    }
    const { literals, slots } = shape
    let text = literals[0] as string
    for (let at = 0; at < slots.length; at++) {
      const value = builder.strings[slots[at] as number]
      if (value === undefined) throw this.mismatch()
      text += value + (literals[at + 1] as string)
    }
    if ((!known || ++this.rendered % this.checkEvery === 0) && this.whole(row) !== text) throw this.mismatch()
    return text
  }
}
