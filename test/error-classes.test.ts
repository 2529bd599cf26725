/** Every error class of the project extends `ReleaseOpsError` (a stable `code`), the base class alone extends `Error`. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ReleaseOpsError } from '../src/core/errors/release-ops-error.js'
import { ParquetDecodeError } from '../src/release/parquet/column-chunk-decoder.js'

const root = join(import.meta.dirname, '..')

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

describe('error classes', () => {
  it('extend ReleaseOpsError, except ReleaseOpsError itself', () => {
    const offenders = sourceFiles(join(root, 'src')).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/class (\w+) extends (\w*Error)\b/g)]
        .filter(([, name, base]) => base === 'Error' && name !== 'ReleaseOpsError')
        .map(([, name]) => `${relative(root, path)}: ${name}`),
    )
    expect(offenders).toEqual([])
  })

  it('give ParquetDecodeError a stable code', () => {
    const error = new ParquetDecodeError('bad page', { path: 'train.parquet' })
    expect(ReleaseOpsError.isInstance(error)).toBe(true)
    expect(error.toJSON()).toEqual({ code: 'parquet_decode', message: 'bad page', path: 'train.parquet' })
  })
})
