/**
 * @module cli: `releaseops train budget`: the completion budget a GRPO run on an env needs, measured
 * from the env's policy ladder rendered with the model family's chat template (`train/completion-budget.ts`).
 * `--max-completion-length N` checks a planned value: below the measured minimum it is the coded error
 * the start route answers with (exit 2).
 */

import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { Option } from '@commander-js/extra-typings'
import { defaultEnvId, envRegistry, policyRegistry } from '../../envs/index.js'
import { budgetFormats, budgetRows, checkCompletionBudget, measureCompletionBudget } from '../../train/completion-budget.js'
import { formatTable } from '../format-table.js'
import { parsePositiveInteger } from '../parse-options.js'

export function registerTrainBudgetCommand(train: CommandUnknownOpts): void {
  train
    .command('budget')
    .description(
      'Measure the max_completion_length a GRPO run needs: the ladder’s calls and replies in the model’s chat template.',
    )
    .option('--env <id>', 'environment id', defaultEnvId)
    .addOption(new Option('--format <family>', 'chat template of the model family').choices(budgetFormats).default('qwen3'))
    .option('--split <name>', 'dataset split the policies play', 'train')
    .option('--rows <n>', 'rows each policy plays', parsePositiveInteger, budgetRows)
    .option(
      '--tool-rounds <n>',
      'count only the first n tool rounds (the run’s max_tool_calling_iterations)',
      parsePositiveInteger,
    )
    .option('--max-completion-length <n>', 'check a planned value (exit 2 when it is below the minimum)', parsePositiveInteger)
    .option('--json', 'print the measurement as JSON')
    .action(async (options) => {
      const budget = await measureCompletionBudget({
        envId: options.env,
        envs: envRegistry,
        policies: policyRegistry,
        format: options.format,
        split: options.split,
        rows: options.rows,
        toolRounds: options.toolRounds ?? null,
      })
      if (options.json) process.stdout.write(`${JSON.stringify(budget, null, 2)}\n`)
      else {
        const rows = budget.policies.map((entry) => [
          entry.policy,
          String(entry.episodes),
          String(entry.p50),
          String(entry.p99),
          String(entry.max),
          String(entry.turns_at_p99),
        ])
        process.stdout.write(`${formatTable(['policy', 'episodes', 'p50', 'p99', 'max', 'turns@p99'], rows)}\n`)
        const rounds = budget.tool_rounds === null ? 'whole episodes' : `first ${budget.tool_rounds} tool round(s)`
        process.stdout.write(
          `${budget.env} (${budget.format}, ${budget.split}, ${budget.rows} rows, ${rounds}): calls + replies p99 ${budget.p99} + model text ${budget.room} = minimum ${budget.minimum}; presets use ${budget.recommended}\n`,
        )
      }
      if (options.maxCompletionLength !== undefined) checkCompletionBudget(options.maxCompletionLength, budget)
    })
}
