/**
 * `scripts/house-metrics.mjs` on a planted project: every measure finds what was planted and nothing
 * that sits just under a limit, in a test, in a package entry or in the class's own module.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const script = resolve(import.meta.dirname, '../scripts/house-metrics.mjs')

/** A function whose first and last lines are `lines` apart (inclusive). */
const functionOf = (name: string, lines: number) =>
  `export function ${name}(): number {\n${'  let total = 0\n'.repeat(lines - 3)}  return 0\n}\n`

const planted: Record<string, string> = {
  'package.json': JSON.stringify({ type: 'module', exports: { '.': './dist/index.js' } }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [] },
    include: ['src', 'test'],
  }),
  'src/index.ts': "export const publicThing = 1\nexport { usedByTest } from './lib.js'\n",
  'src/errors/my-error.ts':
    'export class MyError extends Error {}\nexport class ChildError extends MyError {}\n' +
    'export const isMine = (error: unknown) => error instanceof MyError\n',
  'src/not-an-error.ts': 'export class Plain {}\nexport const isPlain = (value: unknown) => value instanceof Plain\n',
  'src/use.ts': [
    "import { ChildError, MyError } from './errors/my-error.js'",
    "import * as errors from './errors/my-error.js'",
    "import { Plain } from './not-an-error.js'",
    'export function check(error: unknown): void {',
    "  if (error instanceof MyError) throw new Error('mine')",
    '  if (error instanceof errors.ChildError) throw Error(String(error instanceof ChildError))',
    '  if (error instanceof Plain || error instanceof TypeError) throw new TypeError(String(error))',
    '}',
    'export async function load(): Promise<number> {',
    "  const { lazy } = await import('./lazy.js')",
    "  return lazy() + (await import('./lazy-property.js')).viaProperty",
    '}',
    '',
  ].join('\n'),
  'src/lazy.ts': 'export const lazy = () => 1\n',
  'src/lazy-property.ts': 'export const viaProperty = 2\n',
  'src/lib.ts': [
    'export const usedByTest = 1',
    'export const onlyHere = 2',
    'export function dead(): void {}',
    'export type TypeOnly = number',
    'const viaShorthand = 3',
    'export { viaShorthand }',
    'export const table = { onlyHere }',
    '',
  ].join('\n'),
  'src/shorthand-user.ts': "import { viaShorthand } from './lib.js'\nexport const holder = { viaShorthand }\n",
  'src/long.ts': [
    functionOf('atLimit', 80),
    functionOf('overLimit', 81),
    `export class Box {\n  method(): void {\n${'    void 0\n'.repeat(88)}  }\n}\n`,
    `export const arrow = () => {\n${'  void 0\n'.repeat(84)}}\n`,
  ].join(''),
  'src/big-file.ts': `export const bigFile = 0\n${'// filler\n'.repeat(300)}`,
  'src/exact-file.ts': `export const exactFile = 0\n${'// filler\n'.repeat(299)}`,
  'src/long.test.ts': `${functionOf('inTest', 200)}throw new Error('tests are not product code')\n`,
  'src/__fixtures__/fixture.ts': functionOf('inFixture', 200),
  'test/lib.test.ts': "import { usedByTest } from '../src/lib.js'\nexport const seen = usedByTest\n",
  'bench/bench-only.bench.ts': "import { benchOnly } from '../dist/bench-only.js'\nexport const seen = benchOnly\n",
  'src/bench-only.ts': 'export const benchOnly = 4\n',
}

interface Row {
  file: string
  line: number
  name?: string
  lines?: number
  errorClass?: string
  usedInOwnFile?: boolean
}
interface Metrics {
  productFiles: number
  longFunctions: Row[]
  longFiles: Row[]
  instanceofSites: Row[]
  instanceofInOwnModule: Row[]
  plainErrorThrows: Row[]
  privateCandidates: Row[]
}

let root: string
let metrics: Metrics
let printed: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'house-metrics-'))
  for (const [path, text] of Object.entries(planted)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  printed = execFileSync(process.execPath, [script, '--root', root, '--json', join(root, 'metrics.json')], { encoding: 'utf8' })
  metrics = JSON.parse(readFileSync(join(root, 'metrics.json'), 'utf8'))
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('house metrics on a planted project', () => {
  it('counts functions of every kind over 80 lines, longest first, and not one at 80 or in tests', () => {
    expect(metrics.longFunctions.map(({ file, line, name, lines }) => ({ file, line, name, lines }))).toEqual([
      { file: 'src/long.ts', line: 163, name: 'Box.method', lines: 90 },
      { file: 'src/long.ts', line: 254, name: 'arrow', lines: 86 },
      { file: 'src/long.ts', line: 81, name: 'overLimit', lines: 81 },
    ])
  })

  it('counts files over 300 lines of product code', () => {
    expect(metrics.longFiles).toEqual([
      { file: 'src/long.ts', lines: 339 },
      { file: 'src/big-file.ts', lines: 301 },
    ])
    expect(metrics.productFiles).toBe(12)
  })

  it('finds instanceof on our error classes (through aliases and namespaces), not on others or in their own module', () => {
    expect(metrics.instanceofSites.map((row) => `${row.line} ${row.errorClass}`)).toEqual([
      '5 MyError',
      '6 ChildError',
      '6 ChildError',
    ])
    expect(metrics.instanceofInOwnModule.map((row) => `${row.file}:${row.line} ${row.errorClass}`)).toEqual([
      'src/errors/my-error.ts:3 MyError',
    ])
  })

  it('finds plain Error throws of the global Error only', () => {
    expect(metrics.plainErrorThrows).toEqual([
      { file: 'src/use.ts', line: 5 },
      { file: 'src/use.ts', line: 6 },
    ])
  })

  it('lists runtime exports no other file uses, whatever way the others reach them', () => {
    expect(metrics.privateCandidates.map((row) => `${row.file} ${row.name} ${row.usedInOwnFile}`)).toEqual([
      'src/big-file.ts bigFile false',
      'src/errors/my-error.ts isMine false',
      'src/exact-file.ts exactFile false',
      'src/lib.ts onlyHere true',
      'src/lib.ts dead false',
      'src/lib.ts table false',
      'src/long.ts atLimit false',
      'src/long.ts overLimit false',
      'src/long.ts Box false',
      'src/long.ts arrow false',
      'src/not-an-error.ts isPlain false',
      'src/shorthand-user.ts holder false',
      'src/use.ts check false',
      'src/use.ts load false',
    ])
  })

  it('prints one table per measure', () => {
    expect(printed).toContain('functions over 80 lines: 3')
    expect(printed).toMatch(/src\/long\.ts\s+163\s+Box\.method\s+90/)
    expect(printed).toContain('runtime exports no other file uses: 14')
  })

  it('refuses an unknown flag or a bad limit with exit code 2', () => {
    for (const args of [['--bogus'], ['--limit', 'many']]) {
      const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' })
      expect(run.status).toBe(2)
      expect(run.stderr).toMatch(/^house-metrics: /)
    }
  })
})
