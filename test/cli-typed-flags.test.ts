/**
 * Flag types are inferred from the option declarations (decision 0070, part 4): an action that claims a
 * flag its command does not declare does not compile, and the values an action was typed to receive are
 * the values commander lets through (a choice list where the type is a union).
 */
import { Command } from '@commander-js/extra-typings'
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { main } from '../src/cli/main.js'
import type { OptsOf } from '../src/cli/opts-of.js'

afterEach(() => {
  vi.restoreAllMocks()
})

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = ''
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk)
    return true
  })
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const code = await main(args)
  vi.restoreAllMocks()
  return { code, stderr }
}

describe('typed flags', () => {
  it('infers each flag from its declaration, and refuses an action claiming an undeclared one', () => {
    const command = new Command()
      .requiredOption('--dataset <name>')
      .option('--seed <n>', 'seed', Number, 42)
      .option('--overwrite')
    expectTypeOf<OptsOf<typeof command>>().toEqualTypeOf<{ dataset: string; seed: number; overwrite?: true }>()
    // @ts-expect-error -- `--registry` is not declared: the action may not claim it.
    command.action((_flags: { dataset: string; registry: string }) => {})
    // @ts-expect-error -- `--seed` is a number, not text.
    command.action((_flags: { seed: string }) => {})
    expect(command.options.map((option) => option.long)).toEqual(['--dataset', '--seed', '--overwrite'])
  })

  it('refuses a split type the split does not know (was passed through as text)', async () => {
    const run = await cli([
      'release',
      'canonical',
      'split',
      '--canonical-dir',
      '/nonexistent',
      '--dataset',
      'd',
      '--split-type',
      'stratified',
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("argument 'stratified' is invalid. Allowed choices are random, group.")
  })

  it('refuses a log level the server does not know before it starts', async () => {
    const run = await cli(['serve', '--port', '0', '--log-level', 'verbose'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("argument 'verbose' is invalid. Allowed choices are fatal, error, warn, info, debug, silent.")
  })
})
