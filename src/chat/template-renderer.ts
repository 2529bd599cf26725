/**
 * @module chat: renders messages with an official template, feeding it values whose Python meaning the
 * template expects.
 *
 * Tool-call arguments are objects in our messages; a JSON string that decodes to an object is decoded
 * first (what vLLM does before templating). Then, because JavaScript has one number type and
 * @huggingface/jinja prints `true` where Python prints `True`, each argument is handed over as the text
 * the Python template would have produced from it: Qwen3 gets the whole object as `json.dumps(…,
 * ensure_ascii=False)` (its template inserts string arguments verbatim, tojson-ing objects), Qwen3.5 gets
 * every value as `str(v)` for scalars and `json.dumps` for lists and objects (its template's own rule).
 * The output is the same bytes; goldens rendered by Python jinja2 check it.
 */
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import type { JsonValue } from '../core/json/json-value.js'
import { pythonDumpsUnicode } from '../core/python/python-json.js'
import { pythonStr } from '../core/python/python-text.js'
import type { RenderOptions } from './chat-format.js'
import type { ChatMessage } from './chat-message.js'
import type { JinjaTemplate } from './jinja-template.js'

/** How a template writes tool-call arguments. */
export type ArgumentStyle = 'json-object' | 'xml-parameters'

/** A JSON string that decodes to an object becomes the object; anything else stays as it is. */
export function decodeArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    const decoded = JSON.parse(value) as unknown
    return decoded !== null && typeof decoded === 'object' && !Array.isArray(decoded) ? decoded : value
  } catch {
    return value
  }
}

function parameterText(value: unknown): string {
  if (value !== null && typeof value === 'object') return pythonDumpsUnicode(value as JsonValue)
  return pythonStr(value as string | number | boolean | null)
}

function prepareArguments(raw: unknown, style: ArgumentStyle, where: string): unknown {
  const value = decodeArguments(raw)
  if (style === 'json-object') return typeof value === 'string' ? value : pythonDumpsUnicode(value as JsonValue)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ReleaseOpsError({
      code: 'template_error',
      path: where,
      message: `Tool-call arguments must be an object for this template (Python's template fails with "Can only get item pairs from a mapping."); got ${JSON.stringify(raw)}.`,
    })
  }
  const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, parameterText(item)])
  return Object.fromEntries(entries)
}

/** Plain template input: arguments pre-rendered as the Python template would render them. */
export function prepareMessages(messages: readonly ChatMessage[], style: ArgumentStyle): Record<string, unknown>[] {
  return messages.map((message, index) => {
    if (message.role !== 'assistant' || !message.tool_calls || message.tool_calls.length === 0) return { ...message }
    return {
      ...message,
      tool_calls: message.tool_calls.map((call, position) => ({
        ...call,
        function: {
          name: call.function.name,
          arguments: prepareArguments(
            call.function.arguments,
            style,
            `messages.${index}.tool_calls.${position}.function.arguments`,
          ),
        },
      })),
    }
  })
}

export function renderWithTemplate(template: JinjaTemplate, style: ArgumentStyle, options: RenderOptions): string {
  const context: Record<string, unknown> = {
    messages: prepareMessages(options.messages, style),
    tools: options.tools && options.tools.length > 0 ? options.tools : null,
    add_generation_prompt: options.addGenerationPrompt ?? false,
  }
  if (options.enableThinking !== undefined) context.enable_thinking = options.enableThinking
  return template.render(context)
}
