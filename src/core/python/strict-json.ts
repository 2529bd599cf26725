/**
 * @module core/python: `json.loads(text, object_pairs_hook=reject_duplicates)`: Python's JSON grammar
 * (NaN and Infinity included, no trailing data) with duplicate object keys rejected at any depth.
 * `JSON.parse` keeps the last duplicate silently, which a strict answer parser must not.
 */
import { ReleaseOpsError } from '../errors/release-ops-error.js'

export type StrictJsonResult = { ok: true; value: unknown } | { ok: false; reason: string }

class StrictJsonError extends ReleaseOpsError {
  constructor(message: string) {
    super({ code: 'strict_json', message })
    this.name = 'StrictJsonError'
  }
}

const whitespace = new Set([' ', '\t', '\n', '\r'])
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters in strings
const stringPattern = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y

class Parser {
  private position = 0

  constructor(private readonly text: string) {}

  parse(): unknown {
    this.skip()
    const value = this.value()
    this.skip()
    if (this.position !== this.text.length) this.fail('extra data after the JSON value')
    return value
  }

  private fail(reason: string): never {
    throw new StrictJsonError(`${reason} (at character ${this.position})`)
  }

  private skip(): void {
    while (this.position < this.text.length && whitespace.has(this.text[this.position] as string)) this.position++
  }

  private value(): unknown {
    const character = this.text[this.position]
    if (character === '{') return this.object()
    if (character === '[') return this.array()
    if (character === '"') return this.string()
    for (const [literal, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
    ] as const) {
      if (this.text.startsWith(literal, this.position)) {
        this.position += literal.length
        return value
      }
    }
    numberPattern.lastIndex = this.position
    const match = numberPattern.exec(this.text)
    if (!match) this.fail('expected a JSON value')
    this.position += match[0].length
    return Number(match[0])
  }

  private string(): string {
    stringPattern.lastIndex = this.position
    const match = stringPattern.exec(this.text)
    if (!match) this.fail('invalid string')
    this.position += match[0].length
    return JSON.parse(match[0]) as string
  }

  private array(): unknown[] {
    this.position++
    const items: unknown[] = []
    this.skip()
    if (this.text[this.position] === ']') {
      this.position++
      return items
    }
    for (;;) {
      this.skip()
      items.push(this.value())
      this.skip()
      const next = this.text[this.position++]
      if (next === ']') return items
      if (next !== ',') this.fail('expected "," or "]"')
    }
  }

  private object(): Record<string, unknown> {
    this.position++
    const result: Record<string, unknown> = Object.create(null)
    const keys = new Set<string>()
    this.skip()
    if (this.text[this.position] === '}') {
      this.position++
      return result
    }
    for (;;) {
      this.skip()
      if (this.text[this.position] !== '"') this.fail('expected a string key')
      const key = this.string()
      if (keys.has(key)) this.fail(`duplicate key "${key}"`)
      keys.add(key)
      this.skip()
      if (this.text[this.position++] !== ':') this.fail('expected ":"')
      this.skip()
      result[key] = this.value()
      this.skip()
      const next = this.text[this.position++]
      if (next === '}') return result
      if (next !== ',') this.fail('expected "," or "}"')
    }
  }
}

/** Parses `text` as one JSON value; never throws. */
export function parseStrictJson(text: string): StrictJsonResult {
  try {
    return { ok: true, value: new Parser(text).parse() }
  } catch (error) {
    if (StrictJsonError.isInstance(error)) return { ok: false, reason: error.message }
    // A pathologically deep document overflows the stack; Python fails it too (RecursionError).
    if (error instanceof RangeError) return { ok: false, reason: 'nesting too deep' }
    throw error
  }
}
