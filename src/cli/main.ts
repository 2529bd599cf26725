/** @module cli: the `releaseops` binary: one program, one command per job, typed errors mapped to exit codes. */
import { Command, CommanderError } from 'commander'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { registerChatCommand } from './commands/chat-command.js'
import { registerDatasetCommand } from './commands/dataset-command.js'
import { registerEnvCommand } from './commands/env-command.js'
import { registerEvalCommand } from './commands/eval-command.js'
import { registerGateCommand } from './commands/gate-command.js'
import { registerMcpCommand } from './commands/mcp-command.js'
import { registerMockLlmCommand } from './commands/mock-llm-command.js'
import { registerReleaseCommand } from './commands/release-command.js'
import { registerServeCommand } from './commands/serve-command.js'
import { registerTrainCommand } from './commands/train-command.js'
import { registerVerlCommand } from './commands/verl-command.js'

export function buildProgram(): Command {
  const program = new Command()
    .name('releaseops')
    .description('Environments, datasets and evaluations for training tool-using LLM agents.')
    .version('0.1.0')
    .showHelpAfterError()
    // Before the commands are added: subcommands copy it, so their usage errors reach `main` (exit 2).
    .exitOverride()
  registerEvalCommand(program)
  registerDatasetCommand(program)
  registerEnvCommand(program)
  registerServeCommand(program)
  registerMcpCommand(program)
  registerChatCommand(program)
  registerMockLlmCommand(program)
  registerReleaseCommand(program)
  registerGateCommand(program)
  registerTrainCommand(program)
  registerVerlCommand(program)
  return program
}

/** Runs the CLI; returns the exit code instead of exiting, so tests can call it in process. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram()
  try {
    await program.parseAsync([...argv], { from: 'user' })
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (error) {
    // Usage errors (unknown option, bad value, missing argument) exit 2, as other typed input errors do.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    if (ReleaseOpsError.isInstance(error)) {
      const where = error.path ? ` (${error.path})` : ''
      process.stderr.write(`error[${error.code}]${where}: ${error.message}\n`)
      const issues = (error.details?.issues ?? []) as { path: string; message: string }[]
      for (const issue of issues.slice(0, 20)) process.stderr.write(`  ${issue.path}: ${issue.message}\n`)
      return 2
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return 1
  }
}
