/**
 * @module io: reads a JSON input file. A missing file or bad JSON becomes a coded error naming the
 * file (and line and column for syntax errors); `strict` also rejects duplicate keys.
 */
import { readFileSync } from 'node:fs'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { parseStrictJson } from '../core/python/strict-json.js'

export interface JsonFile {
  value: unknown
  bytes: Buffer
}

export function readFileBytes(path: string, kind: string): Buffer {
  try {
    return readFileSync(path)
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
    throw new InvalidInputError({
      code: missing ? 'input_missing' : 'input_unreadable',
      path,
      message: `${missing ? 'Missing' : 'Unreadable'} ${kind}: ${path}${missing ? '' : ` (${(error as Error).message})`}`,
      issues: [
        { code: missing ? 'input_missing' : 'input_unreadable', path, message: missing ? 'file not found' : String(error) },
      ],
    })
  }
}

function position(text: string, offset: number): string {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return `line ${line} column ${offset - before.lastIndexOf('\n')}`
}

export function readJsonFile(path: string, options: { kind: string; strict?: boolean }): JsonFile {
  const bytes = readFileBytes(path, options.kind)
  const text = bytes.toString('utf8').replace(/^\ufeff/, '')
  if (options.strict) {
    const parsed = parseStrictJson(text)
    if (parsed.ok) return { value: parsed.value, bytes }
    throw new InvalidInputError({
      code: 'invalid_json',
      path,
      message: `${options.kind} ${path} is not valid JSON: ${parsed.reason}`,
      issues: [{ code: 'invalid_json', path, message: parsed.reason }],
    })
  }
  try {
    return { value: JSON.parse(text), bytes }
  } catch (error) {
    const offset = Number(/position (\d+)/.exec((error as Error).message)?.[1] ?? Number.NaN)
    const where = Number.isFinite(offset) ? `${path}:${position(text, offset)}` : path
    throw new InvalidInputError({
      code: 'invalid_json',
      path: where,
      message: `${options.kind} ${path} is not valid JSON: ${(error as Error).message}`,
      issues: [{ code: 'invalid_json', path: where, message: (error as Error).message }],
    })
  }
}
