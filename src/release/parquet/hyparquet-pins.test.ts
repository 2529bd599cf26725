/** hyparquet's internals are imported in one file, and both packages are pinned to exactly what is installed. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : []
  })
}

describe('hyparquet packages', () => {
  it('are pinned exactly, at the installed versions', () => {
    for (const name of ['hyparquet', 'hyparquet-writer']) {
      const manifest = join(root, 'node_modules', name, 'package.json')
      const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
      expect(packageJson.dependencies[name], name).toBe(installed)
    }
  })

  it('have their internal modules imported by hyparquet-internals.ts alone', () => {
    const importers = sources(join(root, 'src'))
      .filter((path) => /from 'hyparquet(-writer)?\/src\//.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path))
    expect(importers).toEqual(['src/release/parquet/hyparquet-internals.ts'])
  })
})
