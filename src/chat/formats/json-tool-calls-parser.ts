/**
 * @module chat/formats: the json-tool-calls parser. Strict first: the whole reply is
 * `{"tool_calls": [{"name": …, "arguments": {…}}]}`. Otherwise the documented repair steps run in order
 * (the original driver's `parse_action`, generalised), and every repair is an issue with `repaired: true`:
 * code fence → first decodable JSON in the text (single quotes, trailing commas) → missing wrapper →
 * key aliases (`tool`, `tool_name`, `function`, `parameters`) → string arguments → flat arguments →
 * schema coercion → regex extraction of a known tool name and its arguments.
 */
import type { JsonObject } from '../../core/json/json-value.js'
import type { ParseIssue, ParseOptions, ParseResult } from '../chat-format.js'
import type { ChatTool, ParsedToolCall } from '../chat-message.js'
import { splitReasoning } from '../split-reasoning.js'
import { coerceArguments } from './coerce-arguments.js'
import { findFirstJson } from './json-scan.js'
import { countRepairs, toolByName } from './parse-helpers.js'

const nameKeys = ['name', 'tool_name', 'tool', 'function'] as const
const argumentKeys = ['arguments', 'parameters', 'args', 'input'] as const
const wrapperKeys = new Set<string>([...nameKeys, ...argumentKeys, 'id', 'type'])

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

function repair(code: ParseIssue['code'], message: string, path?: string): ParseIssue {
  return { code, message, repaired: true, ...(path === undefined ? {} : { path }) }
}

function normalizeCall(item: unknown, path: string, issues: ParseIssue[]): ParsedToolCall | null {
  if (!isObject(item)) {
    issues.push({ code: 'invalid_json', path, message: 'A tool call is not a JSON object.' })
    return null
  }
  let record = item
  if (isObject(record.function) && typeof record.function.name === 'string') {
    issues.push(repair('key_alias', 'OpenAI-shaped {"function": {"name", "arguments"}} call unwrapped.', path))
    record = record.function
  }
  const nameKey = nameKeys.find((key) => typeof record[key] === 'string' && record[key] !== '')
  if (!nameKey) {
    issues.push({ code: 'missing_name', path: `${path}.name`, message: 'A tool call has no "name".' })
    return null
  }
  if (nameKey !== 'name') issues.push(repair('key_alias', `"${nameKey}" was read as "name".`, `${path}.name`))
  const argumentKey = argumentKeys.find((key) => record[key] !== undefined)
  let raw: unknown
  if (argumentKey === undefined) {
    const flat = Object.fromEntries(Object.entries(record).filter(([key]) => !wrapperKeys.has(key)))
    if (Object.keys(flat).length > 0)
      issues.push(repair('flat_arguments', 'Arguments beside the name were read as the arguments.', path))
    raw = flat
  } else {
    if (argumentKey !== 'arguments')
      issues.push(repair('key_alias', `"${argumentKey}" was read as "arguments".`, `${path}.arguments`))
    raw = record[argumentKey]
  }
  if (typeof raw === 'string') {
    const found = findFirstJson(raw)
    if (found && isObject(found.value)) {
      issues.push(repair('string_arguments', 'Arguments were a JSON string; decoded.', `${path}.arguments`))
      raw = found.value
    } else {
      issues.push({
        code: 'invalid_arguments',
        path: `${path}.arguments`,
        message: 'Arguments are a string that is not a JSON object.',
      })
      return { name: record[nameKey] as string, arguments: raw }
    }
  }
  if (!isObject(raw)) {
    issues.push({ code: 'invalid_arguments', path: `${path}.arguments`, message: 'Arguments are not a JSON object.' })
    return { name: record[nameKey] as string, arguments: JSON.stringify(raw ?? null) }
  }
  return { name: record[nameKey] as string, arguments: raw as JsonObject }
}

/** The calls a decoded value holds, with the shape repairs it needed. */
function callsOf(value: unknown, issues: ParseIssue[]): ParsedToolCall[] {
  let items: unknown[]
  if (isObject(value) && value.tool_calls !== undefined) {
    if (Array.isArray(value.tool_calls)) {
      items = value.tool_calls
    } else {
      issues.push(repair('missing_wrapper', '"tool_calls" held one call, not a list.'))
      items = [value.tool_calls]
    }
  } else if (Array.isArray(value)) {
    issues.push(repair('missing_wrapper', 'A bare list of calls was read as "tool_calls".'))
    items = value
  } else {
    issues.push(repair('missing_wrapper', 'A bare call object was read as {"tool_calls": [call]}.'))
    items = [value]
  }
  return items.flatMap((item, index) => normalizeCall(item, `tool_calls.${index}`, issues) ?? [])
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Last resort: a known tool named in the text, with whatever `"key": value` pairs of its schema appear. */
function regexCall(text: string, tools: readonly ChatTool[]): ParsedToolCall | null {
  const names = tools.map((tool) => tool.function.name)
  const keyed = new RegExp(`"(?:tool|name|tool_name)"\\s*:\\s*"(${names.map(escapeRegExp).join('|')})"`).exec(text)
  const mentioned = names.filter((name) => new RegExp(`\\b${escapeRegExp(name)}\\b`).test(text))
  const name = keyed?.[1] ?? (mentioned.length === 1 ? mentioned[0] : undefined)
  if (name === undefined) return null
  const properties =
    (toolByName(tools, name)?.function.parameters as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
  const args: JsonObject = {}
  for (const key of Object.keys(properties)) {
    const match = new RegExp(
      `["']${escapeRegExp(key)}["']\\s*[:=]\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*'|-?\\d+(?:\\.\\d+)?|true|false|null)`,
    ).exec(text)
    if (!match) continue
    const literal = match[1] as string
    args[key] = literal.startsWith("'") ? literal.slice(1, -1) : (JSON.parse(literal) as JsonObject[string])
  }
  return { name, arguments: args }
}

export function parseJsonToolCalls(text: string, options: ParseOptions = {}): ParseResult {
  const split = splitReasoning(text, options.openThink ?? false)
  const issues: ParseIssue[] = [...split.issues]
  let body = split.rest.trim()
  let toolCalls: ParsedToolCall[] = []
  let content: string | null = null
  const fence = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(body)
  let strict: unknown
  try {
    strict = JSON.parse(body)
  } catch {
    strict = undefined
  }
  if (strict === undefined && fence) {
    issues.push(repair('code_fence', 'The JSON was inside a code fence.'))
    if (body.slice(0, fence.index).trim() !== '' || body.slice(fence.index + fence[0].length).trim() !== '') {
      issues.push(repair('text_around_json', 'Text around the code fence was ignored.'))
    }
    body = (fence[1] as string).trim()
  }
  const found =
    strict !== undefined ? { value: strict, start: 0, end: body.length, fixes: [] } : findFirstJson(body, { arrays: true })
  if (found) {
    if (
      strict === undefined &&
      (found.start > 0 || found.end < body.length) &&
      !issues.some((issue) => issue.code === 'text_around_json')
    ) {
      issues.push(repair('text_around_json', 'Text around the JSON was ignored.'))
    }
    for (const fix of found.fixes)
      issues.push(
        repair(
          fix,
          fix === 'single_quotes' ? 'Single-quoted strings were read as JSON strings.' : 'Trailing commas were dropped.',
        ),
      )
    toolCalls = callsOf(found.value, issues)
    if (toolCalls.length === 0 && !(isObject(found.value) && Array.isArray(found.value.tool_calls))) content = body
  } else {
    const extracted = options.tools && options.tools.length > 0 ? regexCall(body, options.tools) : null
    if (extracted) {
      issues.push(
        repair('regex_extracted', `No JSON decoded; the call to ${extracted.name} was extracted from the text.`, 'tool_calls.0'),
      )
      toolCalls = [extracted]
    } else {
      issues.push({ code: 'invalid_json', message: 'The reply holds no JSON object and names no known tool.' })
      content = body === '' ? null : body
    }
  }
  toolCalls = toolCalls.map((call, index) => {
    const path = `tool_calls.${index}`
    const tool = toolByName(options.tools, call.name)
    if (options.tools && options.tools.length > 0 && !tool)
      issues.push({ code: 'unknown_tool', path: `${path}.name`, message: `Unknown tool "${call.name}".` })
    if (typeof call.arguments === 'string') return call
    const coerced = coerceArguments({ args: call.arguments, tool, path: `${path}.arguments` })
    issues.push(...coerced.issues)
    return { name: call.name, arguments: coerced.args }
  })
  return {
    content,
    reasoning: split.reasoning === null || split.reasoning === '' ? null : split.reasoning,
    toolCalls,
    issues,
    repairs: countRepairs(issues),
  }
}
