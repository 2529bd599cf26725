/**
 * Every `releaseops …` command the README, the release runbook (docs/release-runbook.md) and the
 * bring-your-own-data guide show exists,
 * with every flag written beside it: each line's command words (`a|b` alternatives each) are walked down
 * the real program (every command registered, as `node bin/releaseops.js <cmd> --help` would load it), and
 * each `--flag` must be an option of that command (of one of the alternatives).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings'
import { describe, expect, it } from 'vitest'
import { commandEntries } from '../src/cli/command-entries.js'
import { repositoryRoot } from './support/run-cli.js'

interface Shown {
  file: string
  line: string
  words: string[][]
  flags: string[]
}

/** The `releaseops` lines of a Markdown file's bash (and `sh`, shown but not run) blocks, continuation lines joined. */
function shownCommands(file: string): Shown[] {
  const text = readFileSync(resolve(repositoryRoot, file), 'utf8')
  const blocks = [...text.matchAll(/```(?:bash|sh)\n([\s\S]*?)```/g)].map((match) => match[1] as string)
  const lines = blocks.flatMap((block) => block.replace(/\\\n\s*/g, ' ').split('\n'))
  return lines
    .map((line) => line.replace(/^.*?\|\s*(?=releaseops )/, '').trim())
    .filter((line) => line.startsWith('releaseops '))
    .map((line) => {
      const code = line.replace(/\s#\s.*$/, '')
      const tokens = code.split(/\s+/).slice(1)
      const words: string[][] = []
      for (const token of tokens) {
        if (!/^[a-z][a-z-]*(\|[a-z][a-z-]*)*$/.test(token)) break
        words.push(token.split('|'))
      }
      const flags = [...code.matchAll(/(?:^|[\s[])(--[a-z][a-z-]*)/g)].map((match) => match[1] as string)
      return { file, line: code, words, flags }
    })
}

async function fullProgram(): Promise<Command> {
  const program = new Command().name('releaseops')
  for (const entry of commandEntries) (await entry.load())(program)
  return program
}

/** The commands these words name (one per alternative path); an unknown word is an error. */
function resolveWords(program: CommandUnknownOpts, words: string[][]): CommandUnknownOpts[] {
  let current = [program]
  for (const alternatives of words) {
    const next: CommandUnknownOpts[] = []
    for (const command of current) {
      if (command.commands.length === 0) {
        next.push(command) // a positional argument of a leaf command, not a subcommand
        continue
      }
      for (const word of alternatives) {
        const found = command.commands.find((child) => child.name() === word || child.aliases().includes(word))
        if (!found) throw new Error(`no command "${word}" under "${command.name()}"`)
        next.push(found)
      }
    }
    current = next
  }
  return current
}

describe.each(['README.md', 'docs/release-runbook.md', 'docs/bring-your-own-data.md'])('commands in %s', (file) => {
  const shown = shownCommands(file)

  it('are all there, with their flags', async () => {
    expect(shown.length).toBeGreaterThan(file === 'README.md' ? 25 : 7)
    const program = await fullProgram()
    for (const item of shown) {
      const commands = resolveWords(program, item.words)
      for (const flag of item.flags) {
        const known = commands.some((command) => command.options.some((option) => option.long === flag))
        expect(known, `${file}: ${item.line}: ${flag}`).toBe(true)
      }
    }
  })
})

describe('the command check itself', () => {
  it('refuses a command or a flag that does not exist', async () => {
    const program = await fullProgram()
    expect(() => resolveWords(program, [['release'], ['split']])).toThrow('no command "split" under "release"')
    // The README's old line: `release preprocess|canonical build|split|audit`.
    expect(() => resolveWords(program, [['release'], ['preprocess', 'canonical'], ['build', 'split', 'audit']])).toThrow(
      'no command "audit" under "canonical"',
    )
    const [serve] = resolveWords(program, [['serve']])
    expect(serve?.options.some((option) => option.long === '--operator-token')).toBe(true)
    expect(serve?.options.some((option) => option.long === '--operator')).toBe(false)
  })
})
