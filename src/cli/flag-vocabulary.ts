/**
 * @module cli: one flag vocabulary (issue 37 item 4): `--out <file>` for a file a command writes,
 * `--out-dir <dir>` for a directory. The old spellings (`--output`, `--output-dir`, a directory's `--out`)
 * stay as hidden aliases: they still work and print a deprecation warning on stderr, so scripts keep
 * running while help and docs show one word. `flag-vocabulary.test.ts` walks every command and fails on a
 * visible synonym.
 */
import { type Command, type InferOptions, Option, type OptionValues } from '@commander-js/extra-typings'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'

/** Long flags that name an output path in another word than `--out`/`--out-dir`: never visible. */
export const outputSynonyms: readonly string[] = [
  '--output',
  '--output-dir',
  '--outdir',
  '--out-file',
  '--output-file',
  '--out-path',
  '--output-path',
  '--dest',
  '--destination',
  '--target-dir',
]

/** The description every hidden alias carries (the vocabulary test recognises aliases by it). */
export const deprecatedAliasPrefix = 'deprecated alias of'

export interface RenamedOption<S extends string = string, Required extends boolean = boolean> {
  /** The option as shown, e.g. `--out <file>`. */
  flags: S
  description: string
  /** Old long flags (no value part), e.g. `['--output']`. */
  aliases: readonly string[]
  required?: Required
}

/** `command` with the option `S` added: its value typed as commander's own `.option`/`.requiredOption` type it. */
type WithOption<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
  S extends string,
  Required extends boolean,
> = Command<A, InferOptions<O, S, undefined, undefined, Required>, G>

/**
 * Adds `flags` and a hidden alias per old spelling. An alias's value is moved onto the new option (with a
 * warning) before the action runs; both at once is refused; `required` is checked after the move, with
 * commander's own "required option" error.
 */
function addRenamedOption<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
  S extends string,
  Required extends boolean = false,
>(command: Command<A, O, G>, spec: RenamedOption<S, Required>): WithOption<A, O, G, S, Required> {
  const option = new Option(spec.flags, spec.description)
  const name = option.long as string
  const value = spec.flags.slice(name.length).trim()
  command.addOption(option)
  const aliases = spec.aliases.map((alias) => {
    const hidden = new Option(`${alias} ${value}`, `${deprecatedAliasPrefix} ${name}`).hideHelp()
    command.addOption(hidden)
    return hidden
  })
  command.hook('preAction', (self) => {
    const target = option.attributeName()
    for (const alias of aliases) {
      const given = self.getOptionValue(alias.attributeName())
      if (given === undefined) continue
      if (self.getOptionValue(target) !== undefined) {
        const message = `${alias.long} is the old spelling of ${name}: give ${name} only.`
        throw new InvalidInputError({
          code: 'conflicting_options',
          path: name,
          message,
          issues: [{ code: 'conflicting_options', path: name, message }],
        })
      }
      process.stderr.write(`releaseops: warning: ${alias.long} is deprecated; use ${name} (the old spelling will be removed).\n`)
      self.setOptionValueWithSource(target, given, 'cli')
    }
    if (spec.required && self.getOptionValue(target) === undefined)
      self.error(`error: required option '${spec.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' })
  })
  // The one cast: the option was added above (and a required one is checked by the hook), as the type says.
  return command as unknown as WithOption<A, O, G, S, Required>
}

/** `--out <file>`: a file the command writes. */
export function addOutFileOption<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
  Required extends boolean = false,
>(command: Command<A, O, G>, spec: { description: string; aliases?: readonly string[]; required?: Required }) {
  return addRenamedOption(command, { flags: '--out <file>', aliases: spec.aliases ?? [], ...spec })
}

/** `--out-dir <dir>`: a directory the command writes. */
export function addOutDirOption<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
  Required extends boolean = false,
>(command: Command<A, O, G>, spec: { description: string; aliases?: readonly string[]; required?: Required }) {
  return addRenamedOption(command, { flags: '--out-dir <dir>', aliases: spec.aliases ?? [], ...spec })
}
