/**
 * One flag vocabulary (issue 37 item 4): every command of the real program is walked, and an output path
 * is `--out <file>` or `--out-dir <dir>`; old spellings are hidden aliases that still work and warn;
 * `--grading-config` is taken wherever a grading standard is; `--mode` has one default.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CommandUnknownOpts, Help, type Option } from '@commander-js/extra-typings'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultModelMode } from '../src/agent/chat-model.js'
import { commandEntries } from '../src/cli/command-entries.js'
import { deprecatedAliasPrefix, outputSynonyms } from '../src/cli/flag-vocabulary.js'
import { runCliInProcess } from './support/run-cli-in-process.js'

async function everyCommand(): Promise<{ path: string; command: CommandUnknownOpts }[]> {
  const { Command } = await import('@commander-js/extra-typings')
  const program = new Command('releaseops')
  for (const entry of commandEntries) (await entry.load())(program)
  const found: { path: string; command: CommandUnknownOpts }[] = []
  const walk = (command: CommandUnknownOpts, path: string) => {
    if (path) found.push({ path, command })
    for (const child of command.commands) walk(child, `${path} ${child.name()}`.trim())
  }
  walk(program, '')
  return found
}

const help = new Help()
const visible = (command: CommandUnknownOpts): Option[] =>
  help.visibleOptions(command).filter((option) => option.long !== '--help')
const hidden = (command: CommandUnknownOpts): Option[] => command.options.filter((option) => !visible(command).includes(option))

describe('the flag vocabulary', async () => {
  const commands = await everyCommand()

  it('walks every command (the release line and the rest)', () => {
    const paths = commands.map((entry) => entry.path)
    expect(paths).toEqual(expect.arrayContaining(['eval', 'dataset', 'release preprocess', 'verl config', 'gate rollout']))
    expect(paths.length).toBeGreaterThan(30)
  })

  it('an output path is --out <file> or --out-dir <dir>: no visible synonym', () => {
    const offenders: string[] = []
    for (const { path, command } of commands) {
      for (const option of visible(command)) {
        const long = option.long ?? ''
        if (outputSynonyms.includes(long) || /^--(out|output)(-|$)/.test(long)) {
          const allowed = option.flags === '--out <file>' || option.flags === '--out-dir <dir>'
          if (!allowed) offenders.push(`${path}: ${option.flags}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })

  it('every hidden output spelling is a deprecated alias of --out or --out-dir', () => {
    const aliases: string[] = []
    for (const { path, command } of commands) {
      for (const option of hidden(command)) {
        const long = option.long ?? ''
        if (!outputSynonyms.includes(long) && !/^--out/.test(long)) continue
        expect(option.description, `${path} ${long}`).toMatch(new RegExp(`^${deprecatedAliasPrefix} --out(-dir)?$`))
        aliases.push(`${path} ${long}`)
      }
    }
    expect(aliases).toEqual(
      expect.arrayContaining(['release preprocess --output', 'verl config --output-dir', 'release sft export --output-dir']),
    )
  })

  it('where a grading manifest is taken, a grading config is too', () => {
    const missing = commands
      .filter(({ command }) => visible(command).some((option) => option.long === '--grading-manifest'))
      .filter(({ command }) => !visible(command).some((option) => option.long === '--grading-config'))
      .map((entry) => entry.path)
    // A mixture joins several datasets (and a cascade is one): one standard file cannot stand for them all.
    expect(missing.sort()).toEqual(['release mixture build', 'release rl validate-cascade'])
  })

  it('--mode has one default', () => {
    const defaults = commands.flatMap(({ path, command }) =>
      command.options.filter((option) => option.long === '--mode').map((option) => [path, option.defaultValue]),
    )
    expect(defaults.length).toBeGreaterThanOrEqual(2)
    for (const [path, value] of defaults) expect(value, String(path)).toBe(defaultModelMode)
  })
})

describe('an old spelling', () => {
  const work = mkdtempSync(join(tmpdir(), 'flag-vocabulary-'))
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('still works and warns on stderr (stdout stays the machine-readable lines)', async () => {
    const result = await runCliInProcess(['dataset', '--env', 'releaseops-v1', '--out', join(work, 'old'), '--splits', 'eval'])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stderr).toContain('warning: --out is deprecated; use --out-dir')
    expect(result.stdout).toMatch(/eval\.jsonl\t\d+ rows/)
    expect(readFileSync(join(work, 'old', 'eval.jsonl'), 'utf8').length).toBeGreaterThan(0)
  })

  it('together with the new one is refused; neither is commander’s missing-option error', async () => {
    const both = await runCliInProcess(['dataset', '--out', join(work, 'a'), '--out-dir', join(work, 'b')])
    expect(both.status).toBe(2)
    expect(both.stderr).toContain('error[conflicting_options] (--out-dir)')
    const none = await runCliInProcess(['dataset'])
    expect(none.status).toBe(2)
    expect(none.stderr).toContain("required option '--out-dir <dir>' not specified")
  })
})
