/**
 * @module release/trajectories/stats: renders conversations with the official template, the system turn
 * once. In the Qwen3.5 templates the system turn (the tools, then the system message) is written first
 * and depends on nothing else; the rest depends only on the other messages (their roles and contents),
 * never on the system message's content. So a row renders as the system turn of its (tools, system
 * message), rendered once, followed by the template's output for the row with an empty system message and
 * no tools, minus that empty turn. Every row of a new system turn and every `checkEvery`-th row is also
 * rendered whole and compared: a difference is an error, never a silent count.
 */
import type { ChatFormat } from '../../../chat/chat-format.js'
import type { ChatMessage, ChatTool } from '../../../chat/chat-message.js'
import { ReleaseOpsError } from '../../../core/errors/release-ops-error.js'

export interface RenderedRow {
  messages: readonly ChatMessage[]
  tools: readonly ChatTool[] | null
  enableThinking?: boolean
}

const probe: ChatMessage = { role: 'user', content: 'q' }

export class SystemPrefixRenderer {
  /** System message content → its rendered system turn, for rows whose tools are `tools` itself. */
  private readonly prefixes = new Map<string, string>()
  /** The template's output for the probe alone, and the empty system turn before it. */
  private readonly probeText: string
  private readonly emptyTurn: string
  private rendered = 0

  constructor(
    private readonly format: ChatFormat,
    private readonly tools: readonly ChatTool[],
    private readonly checkEvery = 256,
  ) {
    this.probeText = this.whole({ messages: [probe], tools: null })
    this.emptyTurn = this.beforeProbe(this.whole({ messages: [{ role: 'system', content: '' }, probe], tools: null }))
  }

  private beforeProbe(text: string): string {
    if (!text.endsWith(this.probeText)) throw this.mismatch()
    return text.slice(0, text.length - this.probeText.length)
  }

  private mismatch(): ReleaseOpsError {
    return new ReleaseOpsError({
      code: 'render_shortcut_mismatch',
      message: `Rendering the system turn once gave a different text than the ${this.format.id} template for the whole conversation; stats would be wrong.`,
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

  /** The template's output for `messages` after an empty system turn, without that turn. */
  private restOf(messages: readonly ChatMessage[], enableThinking?: boolean): string {
    const text = this.whole({
      messages: [{ role: 'system', content: '' }, ...messages],
      tools: null,
      ...(enableThinking === undefined ? {} : { enableThinking }),
    })
    if (!text.startsWith(this.emptyTurn)) throw this.mismatch()
    return text.slice(this.emptyTurn.length)
  }

  private prefixOf(system: string): string {
    let prefix = this.prefixes.get(system)
    if (prefix === undefined) {
      prefix = this.beforeProbe(this.whole({ messages: [{ role: 'system', content: system }, probe], tools: this.tools }))
      if (this.prefixes.size < 64) this.prefixes.set(system, prefix)
    }
    return prefix
  }

  render(row: RenderedRow): string {
    const [first, ...rest] = row.messages
    if (row.tools !== this.tools || first?.role !== 'system' || rest.length === 0) return this.whole(row)
    const known = this.prefixes.has(first.content)
    const text = this.prefixOf(first.content) + this.restOf(rest, row.enableThinking)
    if ((!known || ++this.rendered % this.checkEvery === 0) && this.whole(row) !== text) throw this.mismatch()
    return text
  }
}
