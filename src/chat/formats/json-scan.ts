/**
 * @module chat/formats: finds the first JSON value in free text (the original driver tried a decode at
 * every `{`), with the two lenient fixes small models need most: single-quoted strings and trailing commas.
 */

export interface FoundJson {
  value: unknown
  start: number
  end: number
  /** Which lenient fixes were needed to decode it. */
  fixes: ('single_quotes' | 'trailing_comma')[]
}

/** The end (exclusive) of the bracketed span starting at `start`, honouring both quote kinds; -1 if open. */
function spanEnd(text: string, start: number): number {
  const stack: string[] = []
  let quote: string | null = null
  for (let index = start; index < text.length; index++) {
    const character = text[index] as string
    if (quote) {
      if (character === '\\') index++
      else if (character === quote) quote = null
      continue
    }
    if (character === '"' || character === "'") quote = character
    else if (character === '{' || character === '[') stack.push(character === '{' ? '}' : ']')
    else if (character === '}' || character === ']') {
      if (stack.pop() !== character) return -1
      if (stack.length === 0) return index + 1
    }
  }
  return -1
}

function swapSingleQuotes(text: string): string {
  let output = ''
  let quote: string | null = null
  for (let index = 0; index < text.length; index++) {
    const character = text[index] as string
    if (quote === null) {
      if (character === "'") {
        quote = "'"
        output += '"'
      } else {
        if (character === '"') quote = '"'
        output += character
      }
      continue
    }
    if (character === '\\' && index + 1 < text.length) {
      const next = text[index + 1] as string
      output += quote === "'" && next === "'" ? "'" : character + next
      index++
      continue
    }
    if (character === quote) {
      output += '"'
      quote = null
    } else if (quote === "'" && character === '"') {
      output += '\\"'
    } else {
      output += character
    }
  }
  return output
}

const withoutTrailingCommas = (text: string) => text.replace(/,(\s*[}\]])/g, '$1')

function decode(candidate: string): { value: unknown; fixes: FoundJson['fixes'] } | null {
  const attempts: [string, FoundJson['fixes']][] = [
    [candidate, []],
    [withoutTrailingCommas(candidate), ['trailing_comma']],
    [swapSingleQuotes(candidate), ['single_quotes']],
    [withoutTrailingCommas(swapSingleQuotes(candidate)), ['single_quotes', 'trailing_comma']],
  ]
  for (const [text, fixes] of attempts) {
    if (fixes.length > 0 && text === candidate) continue
    try {
      return { value: JSON.parse(text), fixes }
    } catch {
      // try the next fix
    }
  }
  return null
}

/** The first object (or array, when `arrays`) that decodes, scanning from each opening bracket in turn. */
export function findFirstJson(text: string, options: { arrays?: boolean } = {}): FoundJson | null {
  for (let start = 0; start < text.length; start++) {
    const character = text[start]
    if (character !== '{' && !(options.arrays && character === '[')) continue
    const end = spanEnd(text, start)
    if (end === -1) continue
    const decoded = decode(text.slice(start, end))
    if (decoded) return { value: decoded.value, start, end, fixes: decoded.fixes }
  }
  return null
}
