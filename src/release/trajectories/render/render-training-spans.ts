/**
 * @module release/trajectories/render: a conversation rendered the way a multi-turn SFT trainer sees it:
 * the official chat template renders every prefix of the conversation, and each message's span is what
 * its prefix adds to the previous one (the system and user prompt form the first span: the Qwen3.5
 * template refuses a conversation without a user query). The spans must join into the full rendering
 * (the template is prefix-preserving for these conversations), and an assistant span must start with the
 * generation prompt; loss falls on the rest of it, exactly as VeRL's multi-turn dataset masks it.
 */
import type { ChatFormat } from '../../../chat/chat-format.js'
import type { ChatMessage, ChatTool } from '../../../chat/chat-message.js'
import { ReleaseOpsError } from '../../../core/errors/release-ops-error.js'

export interface TrainingSpan {
  /** Messages this span renders: [first, last]. */
  first: number
  last: number
  role: ChatMessage['role'] | 'prompt'
  start: number
  end: number
  /** Where the loss starts: after the generation prompt in an assistant span, `end` (no loss) elsewhere. */
  lossStart: number
}

export interface RenderedConversation {
  text: string
  spans: TrainingSpan[]
}

function notPrefixPreserving(message: string): ReleaseOpsError {
  return new ReleaseOpsError({ code: 'not_prefix_preserving', message })
}

export function renderTrainingSpans(options: {
  format: ChatFormat
  messages: readonly ChatMessage[]
  tools: readonly ChatTool[]
  enableThinking: boolean
}): RenderedConversation {
  const { format, messages } = options
  const render = (count: number, addGenerationPrompt = false) =>
    format.render({
      messages: messages.slice(0, count),
      tools: options.tools,
      addGenerationPrompt,
      enableThinking: options.enableThinking,
    })
  const promptLength = messages.findIndex((message) => message.role !== 'system' && message.role !== 'user')
  const promptEnd = promptLength < 0 ? messages.length : promptLength
  let previous = render(promptEnd)
  const spans: TrainingSpan[] = [
    { first: 0, last: promptEnd - 1, role: 'prompt', start: 0, end: previous.length, lossStart: previous.length },
  ]
  for (let index = promptEnd; index < messages.length; index++) {
    const message = messages[index] as ChatMessage
    const current = render(index + 1)
    if (!current.startsWith(previous))
      throw notPrefixPreserving(`rendering message ${index} (${message.role}) changes the text before it`)
    const start = previous.length
    let lossStart = current.length
    if (message.role === 'assistant') {
      const generationPrompt = render(index, true).slice(previous.length)
      if (!current.startsWith(generationPrompt, start))
        throw notPrefixPreserving(
          `assistant message ${index} does not start with the generation prompt ${JSON.stringify(generationPrompt)} (reasoning with thinking disabled?)`,
        )
      lossStart = start + generationPrompt.length
    }
    spans.push({ first: index, last: index, role: message.role, start, end: current.length, lossStart })
    previous = current
  }
  const full = format.render({
    messages,
    tools: options.tools,
    addGenerationPrompt: false,
    enableThinking: options.enableThinking,
  })
  if (full !== previous) throw notPrefixPreserving('the message-by-message rendering differs from the full rendering')
  return { text: full, spans }
}
