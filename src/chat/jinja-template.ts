/**
 * @module chat: an official chat template run by @huggingface/jinja, with Python's string semantics.
 *
 * @huggingface/jinja 0.5 ignores the argument of `strip`/`lstrip`/`rstrip` (Qwen3's `content.lstrip('\n')`
 * also drops spaces) and its `trim` is JavaScript's. The template text is left untouched; after parsing,
 * those calls are pointed at a helper with Python's semantics. Everything else is the engine's own.
 */
import { Template } from '@huggingface/jinja'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { pythonStrip, type StripMode } from '../core/python/python-text.js'

const helperName = '__releaseops_python_strip'
const stripMethods = new Set(['strip', 'lstrip', 'rstrip'])

type Node = { type: string; [key: string]: unknown }

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'

function helperCall(target: unknown, mode: StripMode, args: readonly unknown[]): Node {
  return {
    type: 'CallExpression',
    callee: { type: 'Identifier', value: helperName },
    args: [target, { type: 'StringLiteral', value: mode }, ...args],
  }
}

/** Rewrites `x.strip(chars)`, `x.lstrip(…)`, `x.rstrip(…)` and `x | trim` into helper calls. */
function pythonCompatible(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pythonCompatible)
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [pythonCompatible(key), pythonCompatible(item)]))
  if (!isNode(value)) return value
  for (const key of Object.keys(value)) if (key !== 'type') value[key] = pythonCompatible(value[key])
  if (value.type === 'CallExpression' && isNode(value.callee) && value.callee.type === 'MemberExpression') {
    const member = value.callee
    const property = member.property
    if (!member.computed && isNode(property) && property.type === 'Identifier' && stripMethods.has(property.value as string)) {
      return helperCall(member.object, property.value as StripMode, value.args as unknown[])
    }
  }
  if (
    value.type === 'FilterExpression' &&
    isNode(value.filter) &&
    value.filter.type === 'Identifier' &&
    value.filter.value === 'trim'
  ) {
    return helperCall(value.operand, 'strip', [])
  }
  return value
}

function stripHelper(text: unknown, mode: StripMode, chars?: unknown): string {
  if (typeof text !== 'string')
    throw new ReleaseOpsError({ code: 'template_error', message: `'${typeof text}' object has no attribute '${mode}'` })
  return pythonStrip(text, mode, typeof chars === 'string' ? chars : null)
}

export class JinjaTemplate {
  private readonly template: Template

  constructor(
    readonly name: string,
    source: string,
  ) {
    this.template = new Template(source)
    this.template.parsed = pythonCompatible(this.template.parsed) as Template['parsed']
  }

  /** Renders with `context` as the template's variables; a template error becomes `template_error`. */
  render(context: Record<string, unknown>): string {
    try {
      return this.template.render({ ...context, [helperName]: stripHelper })
    } catch (error) {
      throw new ReleaseOpsError({
        code: 'template_error',
        message: `The ${this.name} chat template failed: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      })
    }
  }
}
