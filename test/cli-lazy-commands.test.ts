/**
 * Lazy command loading: the top-level help built from stubs equals the help of a program with every
 * command registered for real, and `--help` / `env list` import none of the heavy packages.
 */
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { Command } from '@commander-js/extra-typings'
import { describe, expect, it } from 'vitest'
import { commandEntries } from '../src/cli/command-entries.js'
import { buildProgram, commandNamed } from '../src/cli/main.js'
import { quietOption } from '../src/cli/progress.js'
import { repositoryRoot } from './support/run-cli.js'

async function eagerProgram(): Promise<Command> {
  const program = new Command()
    .name('releaseops')
    .description('Environments, datasets and evaluations for training tool-using LLM agents.')
    .version('0.1.0')
    .option(...quietOption)
  for (const entry of commandEntries) (await entry.load())(program)
  return program
}

function modulesLoaded(args: readonly string[]): string[] {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', resolve(repositoryRoot, 'test/support/record-modules.mjs'), 'src/cli/run.ts', ...args],
    { cwd: repositoryRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  )
  expect(result.status).toBe(0)
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('module: '))
    .map((line) => line.slice('module: '.length))
}

const heavy = ['/fastify/', '/exceljs/', '/@modelcontextprotocol/', '/@huggingface/tokenizers/', '/@napi-rs/canvas', '/hyparquet']

describe('lazy command loading', () => {
  it('the top-level help from stubs is the help of the fully registered program', async () => {
    const lazy = await buildProgram(['--help'])
    expect(lazy.helpInformation()).toBe((await eagerProgram()).helpInformation())
  })

  it('each entry names the command its module registers', async () => {
    const program = await eagerProgram()
    expect(program.commands.map((command) => command.name())).toEqual(commandEntries.map((entry) => entry.name))
  })

  it('loads the command the arguments name, or ask help for', async () => {
    expect(commandNamed(['env', 'list'])).toBe('env')
    expect(commandNamed(['help', 'release'])).toBe('release')
    expect(commandNamed(['--help'])).toBeUndefined()
    const program = await buildProgram(['env', 'list'])
    const env = program.commands.find((command) => command.name() === 'env')
    expect(env?.commands.map((command) => command.name())).toEqual(['list', 'render', 'check', 'audit'])
    expect(program.commands.find((command) => command.name() === 'eval')?.options).toEqual([])
  })

  it('`--help` and `env list` import no heavy package; `serve --help` does', () => {
    for (const args of [['--help'], ['env', 'list']]) {
      const loaded = modulesLoaded(args)
      expect(loaded.length).toBeGreaterThan(3)
      expect(loaded.filter((url) => heavy.some((name) => url.includes(name)))).toEqual([])
    }
    expect(modulesLoaded(['serve', '--help']).some((url) => url.includes('/fastify/'))).toBe(true)
  })
})
