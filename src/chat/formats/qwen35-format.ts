/**
 * @module chat/formats: `qwen3.5` and `qwen3.5-nothink`: XML tool calls
 * `<tool_call><function=NAME><parameter=KEY>VALUE</parameter></function></tool_call>` with values typed
 * by the tool schema (vLLM `qwen3_coder`), the official Qwen3.5 templates (think: 4B and larger; nothink:
 * 2B and smaller).
 */
import type { JsonObject } from '../../core/json/json-value.js'
import { pythonStrip } from '../../core/python/python-text.js'
import type { ChatFormat, FormatAssistantOptions, ParseIssue, ParseOptions, ParseResult } from '../chat-format.js'
import type { AssistantMessage, ChatTool, ParsedToolCall } from '../chat-message.js'
import { JinjaTemplate } from '../jinja-template.js'
import { splitReasoning } from '../split-reasoning.js'
import { decodeArguments, prepareMessages, renderWithTemplate } from '../template-renderer.js'
import { qwen35NothinkTemplate } from '../templates/qwen3-5-nothink-template.js'
import { qwen35ThinkTemplate } from '../templates/qwen3-5-think-template.js'
import { contentBeforeCalls, findToolCallBlocks } from '../tool-call-blocks.js'
import { countRepairs, toolByName } from './parse-helpers.js'
import { convertParameter } from './schema-value.js'

const functionPattern = /^\s*<function=([^\n>]+)>/
const parameterOpen = /<parameter=([^\n>]+)>/g

function propertySchema(tool: ChatTool | undefined, key: string): unknown {
  const properties = (tool?.function.parameters as { properties?: Record<string, unknown> } | undefined)?.properties
  return properties && Object.hasOwn(properties, key) ? properties[key] : undefined
}

/** One parameter value: the template writes `\n` + value + `\n`, so one newline comes off each side. */
function parameterValue(raw: string): string {
  let value = raw
  if (value.startsWith('\n')) value = value.slice(1)
  if (value.endsWith('\n')) value = value.slice(0, -1)
  return value
}

function parseXmlBody(options: { body: string; index: number; tools: readonly ChatTool[] | null | undefined }): {
  call?: ParsedToolCall
  issues: ParseIssue[]
} {
  const { body, index } = options
  const path = `tool_calls.${index}`
  const issues: ParseIssue[] = []
  const header = functionPattern.exec(body)
  if (!header) return { issues: [{ code: 'missing_name', path, message: `Tool call ${index} has no <function=NAME>.` }] }
  const name = (header[1] as string).trim()
  const known = options.tools && options.tools.length > 0
  const tool = toolByName(options.tools, name)
  if (known && !tool) issues.push({ code: 'unknown_tool', path: `${path}.name`, message: `Unknown tool "${name}".` })
  let inner = body.slice(header[0].length)
  const functionEnd = inner.indexOf('</function>')
  if (functionEnd === -1) {
    issues.push({ code: 'unterminated_function', path, message: `Tool call ${index} has no </function>.`, repaired: true })
  } else {
    if (inner.slice(functionEnd + '</function>'.length).trim() !== '') {
      issues.push({ code: 'text_after_tool_call', path, message: `Text after </function> in tool call ${index} was ignored.` })
    }
    inner = inner.slice(0, functionEnd)
  }
  const args: JsonObject = {}
  const opens = [...inner.matchAll(parameterOpen)]
  opens.forEach((match, position) => {
    const key = (match[1] as string).trim()
    const start = (match.index as number) + match[0].length
    const limit = position + 1 < opens.length ? (opens[position + 1]?.index as number) : inner.length
    const closeAt = inner.indexOf('</parameter>', start)
    let raw: string
    if (closeAt === -1 || closeAt > limit) {
      raw = inner.slice(start, limit)
      issues.push({
        code: 'unterminated_parameter',
        path: `${path}.arguments.${key}`,
        message: `Parameter ${key} has no </parameter>.`,
        repaired: true,
      })
    } else {
      raw = inner.slice(start, closeAt)
    }
    if (Object.hasOwn(args, key)) {
      issues.push({
        code: 'duplicate_parameter',
        path: `${path}.arguments.${key}`,
        message: `Parameter ${key} appears twice; the first value was kept.`,
      })
      return
    }
    const schema = propertySchema(tool, key)
    if (tool && schema === undefined) {
      issues.push({
        code: 'unknown_parameter',
        path: `${path}.arguments.${key}`,
        message: `Tool ${name} has no parameter ${key}.`,
      })
    }
    const converted = convertParameter(parameterValue(raw), schema)
    if (!converted.ok) {
      issues.push({
        code: 'invalid_argument_type',
        path: `${path}.arguments.${key}`,
        message: `Parameter ${key} is not a valid ${converted.expected}: ${JSON.stringify(converted.value.slice(0, 80))}.`,
      })
    }
    args[key] = converted.value as JsonObject[string]
  })
  return { call: { name, arguments: args }, issues }
}

export function parseQwen35(text: string, options: ParseOptions = {}): ParseResult {
  const split = splitReasoning(text, options.openThink ?? false)
  const blocks = findToolCallBlocks(split.rest)
  const issues: ParseIssue[] = [...split.issues, ...blocks.issues]
  const toolCalls: ParsedToolCall[] = []
  blocks.bodies.forEach((body, index) => {
    const parsed = parseXmlBody({ body, index, tools: options.tools })
    issues.push(...parsed.issues)
    if (parsed.call) toolCalls.push(parsed.call)
  })
  const content = contentBeforeCalls(blocks.before, blocks.bodies.length > 0, '\n\n')
  return {
    content: content === null ? null : pythonStrip(content),
    reasoning: split.reasoning === null || split.reasoning.trim() === '' ? null : pythonStrip(split.reasoning),
    toolCalls,
    issues,
    repairs: countRepairs(issues),
  }
}

/** The completion for the last assistant turn, as the template renders it after the generation prompt. */
function formatQwen35Assistant(message: AssistantMessage, options: FormatAssistantOptions = {}): string {
  let content = pythonStrip(message.content ?? '')
  let reasoning = message.reasoning_content ?? ''
  if ((message.reasoning_content === undefined || message.reasoning_content === null) && content.includes('</think>')) {
    const split = splitReasoning(content)
    reasoning = split.reasoning ?? ''
    content = split.rest
  }
  let text = ''
  if (!options.thinkingDisabled) text = `${options.openThink ? '' : '<think>\n'}${pythonStrip(reasoning)}\n</think>\n\n`
  text += content
  const [prepared] = prepareMessages([{ ...message, content }], 'xml-parameters') as [AssistantMessage]
  for (const [index, call] of (prepared.tool_calls ?? []).entries()) {
    const name = call.function.name
    text +=
      index === 0 ? `${content.trim() ? '\n\n' : ''}<tool_call>\n<function=${name}>\n` : `\n<tool_call>\n<function=${name}>\n`
    const args = decodeArguments(call.function.arguments) as Record<string, string>
    for (const [key, value] of Object.entries(args)) text += `<parameter=${key}>\n${value}\n</parameter>\n`
    text += '</function>\n</tool_call>'
  }
  return text
}

function createQwen35Format(id: string, source: string, thinkingByDefault: boolean): ChatFormat {
  let template: JinjaTemplate | undefined
  return {
    id,
    stop: ['<|im_end|>', '<|endoftext|>'],
    render: (options) => renderWithTemplate((template ??= new JinjaTemplate(id, source)), 'xml-parameters', options),
    parse: parseQwen35,
    formatAssistant: formatQwen35Assistant,
    opensThink: (enableThinking) => (enableThinking === undefined ? thinkingByDefault : enableThinking),
  }
}

export const qwen35Format = createQwen35Format('qwen3.5', qwen35ThinkTemplate, true)
export const qwen35NothinkFormat = createQwen35Format('qwen3.5-nothink', qwen35NothinkTemplate, false)
