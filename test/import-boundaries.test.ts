/**
 * The layering of docs/architecture.md §1: imports only point down the stack (biome's `noRestrictedImports`
 * enforces it; this checks its configuration against the table), and the pure layers (core, envs, chat)
 * touch no file system, network, clock, randomness or environment variables (node modules: biome too;
 * packages and calls: checked here, no tool has the rule).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..', 'src')

/** What each layer may import from (itself included). */
const allowed: Record<string, readonly string[]> = {
  core: ['core'],
  envs: ['core', 'envs'],
  chat: ['core', 'envs', 'chat'],
  // The env server's TypeScript client: only the contracts, so it ships without the envs.
  client: ['core', 'client'],
  // The project's file I/O (atomic writes, publication, locks, hashes): an adapter on core alone, beside
  // the pure layers, for every impure layer above them.
  io: ['core', 'io'],
  agent: ['core', 'envs', 'chat', 'client', 'io', 'agent'],
  eval: ['core', 'envs', 'chat', 'client', 'io', 'agent', 'eval'],
  release: ['core', 'envs', 'chat', 'client', 'io', 'agent', 'eval', 'release'],
  train: ['core', 'envs', 'chat', 'client', 'io', 'agent', 'eval', 'release', 'train'],
  server: ['core', 'envs', 'chat', 'client', 'io', 'agent', 'eval', 'release', 'train', 'server'],
  cli: ['core', 'envs', 'chat', 'client', 'io', 'agent', 'eval', 'release', 'train', 'server', 'cli'],
}
const pureLayers = new Set(['core', 'envs', 'chat'])
const purePackages = new Set(['zod', '@huggingface/jinja'])
const pureNodeModules = new Set(['node:crypto'])
const impureCalls = [
  /\bDate\.now\(/,
  /\bnew Date\(/,
  /\bMath\.random\(/,
  /\bprocess\.env\b/,
  /\bperformance\.now\(/,
  /\bsetTimeout\(/,
  /\bfetch\(/,
]

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return name === '__fixtures__' ? [] : sourceFiles(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

function importsOf(text: string): string[] {
  const specifiers: string[] = []
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g))
    specifiers.push(match[1] as string)
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(match[1] as string)
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) specifiers.push(match[1] as string)
  return specifiers
}

type RestrictedImports = { level: string; options: { patterns: { group: string[]; message: string }[] } }

const layerOf = (file: string) => relative(root, file).split(/[\\/]/)[0] as string
const files = sourceFiles(root)

describe('import boundaries', () => {
  it('knows every layer folder', () => {
    const layers = new Set(files.map(layerOf).filter((layer) => !layer.endsWith('.ts')))
    for (const layer of layers) expect(Object.keys(allowed), `unknown layer src/${layer}`).toContain(layer)
  })

  // Enforced by biome (`noRestrictedImports` per layer folder, biome.json's overrides; `npx biome check`
  // fails on a violation, dynamic imports included): this checks the overrides say what the table says.
  it('biome forbids each layer exactly the layers above it', () => {
    const config = JSON.parse(readFileSync(resolve(root, '..', 'biome.json'), 'utf8')) as {
      overrides: { includes: string[]; linter: { rules: { style: { noRestrictedImports: RestrictedImports } } } }[]
    }
    const layers = Object.keys(allowed)
    for (const [layer, reachable] of Object.entries(allowed)) {
      const above = layers.filter((other) => !reachable.includes(other)).map((other) => `**/${other}/**`)
      const overrides = config.overrides.filter((override) => override.includes[0] === `src/${layer}/**`)
      if (above.length === 0) {
        expect(overrides, layer).toEqual([])
        continue
      }
      expect(overrides.length, layer).toBeGreaterThan(0)
      for (const override of overrides) {
        const groups = override.linter.rules.style.noRestrictedImports.options.patterns.map((pattern) => pattern.group)
        expect(groups, layer).toContainEqual(above)
        if (pureLayers.has(layer) && override.includes.includes('!**/*.test.ts'))
          expect(groups, layer).toContainEqual(['node:*', ...[...pureNodeModules].map((name) => `!${name}`)])
      }
    }
  })

  it('pure layers use no I/O, clock, randomness or environment', () => {
    const violations: string[] = []
    for (const file of files) {
      if (!pureLayers.has(layerOf(file)) || file.endsWith('.test.ts')) continue
      const text = readFileSync(file, 'utf8')
      for (const specifier of importsOf(text)) {
        if (specifier.startsWith('.')) continue
        const allowedImport = specifier.startsWith('node:') ? pureNodeModules.has(specifier) : purePackages.has(specifier)
        if (!allowedImport) violations.push(`${relative(root, file)} imports ${specifier}`)
      }
      for (const pattern of impureCalls) if (pattern.test(text)) violations.push(`${relative(root, file)} uses ${pattern}`)
    }
    expect(violations).toEqual([])
  })

  it('catches a violation (the checker itself works)', () => {
    expect(importsOf("import { readFile } from 'node:fs/promises'\nexport { x } from '../eval/run-eval.js'")).toEqual([
      'node:fs/promises',
      '../eval/run-eval.js',
    ])
  })
})
