/**
 * Runs the runbook's sections 1–5 verbatim (`runbookCommands`) in process, after `before` (commands a
 * domain needs first), doing §4's manifest step (cp + sha256 + heredoc) as the runbook's shell would.
 */
import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { CliResult } from './run-cli.js'
import { runCliInProcess } from './run-cli-in-process.js'
import { runbookCommands } from './runbook-commands.js'

export interface RunbookResult {
  command: string
  result: CliResult
}

export async function runRunbook(
  variables: Readonly<Record<string, string>> & { DATASET: string; RUN: string; GRADING_CONFIG: string },
  before: readonly (readonly string[])[] = [],
): Promise<RunbookResult[]> {
  const { DATASET: dataset, RUN: run } = variables
  const results: RunbookResult[] = []
  for (const part of ['audits', 'metrics', 'releases']) mkdirSync(join(run, part), { recursive: true })
  for (const args of before) results.push({ command: args.slice(0, 3).join(' '), result: await runCliInProcess([...args]) })
  for (const { section, args } of runbookCommands(variables)) {
    if (section === '4' && args[1] === 'mixture' && !results.some(({ command }) => command === 'manifest')) {
      // §4: `cp "$GRADING_CONFIG" "$RUN/grading.json"`, then the one-entry manifest of its sha256.
      copyFileSync(variables.GRADING_CONFIG, join(run, 'grading.json'))
      const sha256 = createHash('sha256')
        .update(readFileSync(join(run, 'grading.json')))
        .digest('hex')
      writeFileSync(
        join(run, 'grading-manifest.json'),
        `${JSON.stringify({ datasets: { [dataset]: { path: 'grading.json', sha256 } } }, null, 2)}\n`,
      )
      results.push({ command: 'manifest', result: { status: 0, stdout: '', stderr: '' } })
    }
    results.push({ command: args.slice(0, 3).join(' '), result: await runCliInProcess(args) })
  }
  return results
}
