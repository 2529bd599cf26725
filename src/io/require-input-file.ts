/** @module io: the one "input file not found" error the readers raise before opening a file. */
import { existsSync } from 'node:fs'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'

/** Throws `input_missing` when `path` does not exist. */
export function requireInputFile(path: string): void {
  if (!existsSync(path)) {
    throw new InvalidInputError({
      code: 'input_missing',
      path,
      message: `Input file not found: ${path}`,
      issues: [{ code: 'input_missing', path, message: 'file not found' }],
    })
  }
}
