/**
 * @module chat/formats: `qwen3`: Hermes JSON inside `<tool_call>` (vLLM `--tool-call-parser hermes`), the
 * official Qwen3 template, `<think>` reasoning.
 */
import type { JsonObject } from '../../core/json/json-value.js'
import { pythonDumpsUnicode } from '../../core/python/python-json.js'
import { pythonStrip } from '../../core/python/python-text.js'
import type { ChatFormat, FormatAssistantOptions, ParseIssue, ParseOptions, ParseResult } from '../chat-format.js'
import type { AssistantMessage, ParsedToolCall } from '../chat-message.js'
import { JinjaTemplate } from '../jinja-template.js'
import { splitReasoning } from '../split-reasoning.js'
import { decodeArguments, renderWithTemplate } from '../template-renderer.js'
import { qwen3Template } from '../templates/qwen3-template.js'
import { contentBeforeCalls, findToolCallBlocks } from '../tool-call-blocks.js'
import { countRepairs, knownToolNames } from './parse-helpers.js'

let template: JinjaTemplate | undefined
const compiled = () => (template ??= new JinjaTemplate('qwen3', qwen3Template))

function parseHermesBody(
  body: string,
  index: number,
  tools: ReadonlySet<string> | null,
): { call?: ParsedToolCall; issues: ParseIssue[] } {
  const path = `tool_calls.${index}`
  let value: unknown
  try {
    value = JSON.parse(body.trim())
  } catch (error) {
    return {
      issues: [{ code: 'invalid_json', path, message: `Tool call ${index} is not valid JSON: ${(error as Error).message}` }],
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { issues: [{ code: 'invalid_json', path, message: `Tool call ${index} is not a JSON object.` }] }
  }
  const record = value as Record<string, unknown>
  if (typeof record.name !== 'string' || record.name === '') {
    return { issues: [{ code: 'missing_name', path: `${path}.name`, message: `Tool call ${index} has no "name" string.` }] }
  }
  const issues: ParseIssue[] = []
  let args: JsonObject | string
  const raw = record.arguments ?? record.parameters
  if (raw === undefined) {
    args = {}
  } else if (typeof raw === 'string') {
    const decoded = decodeArguments(raw)
    if (typeof decoded === 'string') {
      args = raw
      issues.push({
        code: 'invalid_arguments',
        path: `${path}.arguments`,
        message: 'Arguments are a string that is not a JSON object.',
      })
    } else {
      args = decoded as JsonObject
      issues.push({
        code: 'string_arguments',
        path: `${path}.arguments`,
        message: 'Arguments were a JSON string; decoded.',
        repaired: true,
      })
    }
  } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    args = raw as JsonObject
  } else {
    args = JSON.stringify(raw)
    issues.push({ code: 'invalid_arguments', path: `${path}.arguments`, message: 'Arguments are not a JSON object.' })
  }
  if (tools && !tools.has(record.name)) {
    issues.push({ code: 'unknown_tool', path: `${path}.name`, message: `Unknown tool "${record.name}".` })
  }
  return { call: { name: record.name, arguments: args }, issues }
}

export function parseQwen3(text: string, options: ParseOptions = {}): ParseResult {
  const split = splitReasoning(text, options.openThink ?? false)
  const blocks = findToolCallBlocks(split.rest)
  const tools = knownToolNames(options.tools)
  const issues: ParseIssue[] = [...split.issues, ...blocks.issues]
  const toolCalls: ParsedToolCall[] = []
  blocks.bodies.forEach((body, index) => {
    const parsed = parseHermesBody(body, index, tools)
    issues.push(...parsed.issues)
    if (parsed.call) toolCalls.push(parsed.call)
  })
  return {
    content: contentBeforeCalls(blocks.before, blocks.bodies.length > 0, '\n'),
    reasoning: split.reasoning === '' ? null : split.reasoning,
    toolCalls,
    issues,
    repairs: countRepairs(issues),
  }
}

function hermesCall(name: string, args: unknown): string {
  const decoded = decodeArguments(args)
  const text = typeof decoded === 'string' ? decoded : pythonDumpsUnicode(decoded)
  return `<tool_call>\n{"name": "${name}", "arguments": ${text}}\n</tool_call>`
}

/** The completion for the last assistant turn, as the template would render it after the generation prompt. */
export function formatQwen3Assistant(message: AssistantMessage, options: FormatAssistantOptions = {}): string {
  let content = message.content ?? ''
  let reasoning = message.reasoning_content ?? ''
  if (message.reasoning_content === undefined || message.reasoning_content === null) {
    const split = splitReasoning(content)
    if (split.reasoning !== null && content.includes('</think>')) {
      reasoning = split.reasoning
      content = split.rest
    }
  }
  let text = options.thinkingDisabled
    ? pythonStrip(content, 'lstrip', '\n')
    : `<think>\n${pythonStrip(reasoning, 'strip', '\n')}\n</think>\n\n${pythonStrip(content, 'lstrip', '\n')}`
  const hasContent = pythonStrip(content, 'lstrip', '\n') !== ''
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    if (index > 0 || hasContent) text += '\n'
    text += hermesCall(call.function.name, call.function.arguments)
  }
  return text
}

export const qwen3Format: ChatFormat = {
  id: 'qwen3',
  stop: ['<|im_end|>', '<|endoftext|>'],
  render: (options) => renderWithTemplate(compiled(), 'json-object', options),
  parse: parseQwen3,
  formatAssistant: formatQwen3Assistant,
  opensThink: () => false,
}
