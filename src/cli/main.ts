/** @module cli: the `releaseops` binary: one program, one command per job, typed errors mapped to exit codes. */
import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings'
import { errorOutcomeOf } from '../core/errors/error-outcomes.js'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { type CommandEntry, commandEntries } from './command-entries.js'
import { quietOption, setProgressQuiet } from './progress.js'

/**
 * The program for these arguments. Only the command the arguments name is loaded (its module pulls in
 * what it runs: fastify, exceljs, the MCP SDK, tokenizers…); every other command is a stub that carries
 * its name and description for the top-level help. A command's own help comes from its real module.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<CommandUnknownOpts> {
  const program = new Command()
    .name('releaseops')
    .description('Environments, datasets and evaluations for training tool-using LLM agents.')
    .version('0.1.0')
    .option(...quietOption)
    .hook('preAction', (self) => setProgressQuiet(Boolean(self.opts().quiet)))
    .showHelpAfterError()
    // Before the commands are added: subcommands copy it, so their usage errors reach `main` (exit 2).
    .exitOverride()
  const terms = new Map<CommandUnknownOpts, string>()
  const defaultHelp = program.createHelp()
  program.configureHelp({ subcommandTerm: (command) => terms.get(command) ?? defaultHelp.subcommandTerm(command) })
  const named = commandNamed(argv)
  for (const entry of commandEntries) {
    if (entry.name === named) await registerEntry(program, entry)
    else terms.set(program.command(entry.name).description(entry.description), entry.term)
  }
  return program
}

async function registerEntry(program: CommandUnknownOpts, entry: CommandEntry): Promise<void> {
  const register = await entry.load()
  register(program)
}

/** The top-level command the arguments run (or ask help for): the program has no option taking a value. */
export function commandNamed(argv: readonly string[]): string | undefined {
  const operands = argv.filter((arg) => !arg.startsWith('-'))
  return operands[0] === 'help' ? operands[1] : operands[0]
}

/** Runs the CLI; returns the exit code instead of exiting, so tests can call it in process. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const program = await buildProgram(argv)
    await program.parseAsync([...argv], { from: 'user' })
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (error) {
    // Usage errors (unknown option, bad value, missing argument) exit 2, as refused input does.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    if (ReleaseOpsError.isInstance(error)) {
      // The exit code is the outcome table's (decision 0070): 2 for a refusal, 1 for a failed run.
      const { exit } = errorOutcomeOf(error)
      const where = error.path ? ` (${error.path})` : ''
      process.stderr.write(`error[${error.code}]${where}: ${error.message}\n`)
      // An issue that only repeats the headline (one zod issue, say) is not printed twice.
      const issues = ((error.details?.issues ?? []) as { path: string; message: string }[]).filter(
        (issue) => issue.message !== error.message && !error.message.includes(`${issue.path}: ${issue.message}`),
      )
      for (const issue of issues.slice(0, 20)) process.stderr.write(`  ${issue.path}: ${issue.message}\n`)
      if (issues.length > 20)
        process.stderr.write(`  … and ${issues.length - 20} more (every issue is in the failed-audit file)\n`)
      // A broken invariant is our bug, not the user's input: its stack goes into the report.
      if (error.code === 'internal_invariant' && error.stack) process.stderr.write(`${error.stack}\n`)
      return exit
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 1
  }
}
