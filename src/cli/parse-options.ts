/** @module cli: option parsers that reject bad values with commander's own error. */
import { InvalidArgumentError } from '@commander-js/extra-typings'

export function parsePositiveInteger(value: string): number {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('expected a positive integer')
  return parsed
}

export function parseInteger(value: string): number {
  const parsed = Number(value)
  if (!Number.isSafeInteger(parsed)) throw new InvalidArgumentError('expected an integer')
  return parsed
}

export function parseJsonObject(value: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    throw new InvalidArgumentError('expected a JSON object')
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON object')
  return parsed as Record<string, unknown>
}

export function parseNumber(value: string): number {
  const parsed = Number(value)
  if (!Number.isFinite(parsed)) throw new InvalidArgumentError('expected a number')
  return parsed
}

export function parseNonNegativeInteger(value: string): number {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative integer')
  return parsed
}

/** The fields of `record` that are set: optional flags passed on without a spread per flag. */
export function pickDefined<T extends Record<string, unknown>>(record: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>
  }
}
