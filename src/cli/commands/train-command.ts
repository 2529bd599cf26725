/**
 * @module cli: `releaseops train …`: `trajectories` records scripted episodes through the agent loop
 * (warm-up data); `smoke` proves the whole training path on this machine (tiny Qwen3, warm-up, a real
 * GRPO run against this server over HTTP, checked from the server's own counters).
 */
import { createWriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { defaultEnvId, envRegistry, policyRegistry } from '../../envs/index.js'
import { loadDataset } from '../../eval/load-dataset.js'
import { recordTrajectories } from '../../train/record-trajectories.js'
import { parsePositiveInteger } from '../parse-options.js'
import { registerTrainBudgetCommand } from './train-budget-command.js'
import { registerTrainSmokeCommand } from './train-smoke-command.js'
import { registerTrainVerdictCommand } from './train-verdict-command.js'

export function registerTrainCommand(program: CommandUnknownOpts): void {
  const train = program
    .command('train')
    .description('Training helpers: warm-up trajectories, the end-to-end training smoke, completion budgets.')
  train
    .command('trajectories')
    .description('Record scripted episodes through the agent loop as native-format trajectories (JSONL), e.g. for SFT warm-up.')
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--dataset <split|file.jsonl>', 'rows to play', 'train')
    .option('--policy <names>', 'comma-separated policies, used in turn over the rows', 'phase-aware-rule,rule,naive')
    .option('--rows <n>', 'the first n rows only', parsePositiveInteger)
    .option('--max-turns <n>', 'assistant turns per episode at most', parsePositiveInteger)
    .requiredOption('--out <file>', 'JSONL file to write')
    .action(async (options) => {
      const dataset = await loadDataset({ envId: options.env, source: options.dataset, registry: envRegistry })
      const rows = options.rows === undefined ? dataset.rows : dataset.rows.slice(0, options.rows)
      await mkdir(dirname(options.out), { recursive: true })
      const stream = createWriteStream(options.out)
      let count = 0
      let reward = 0
      for await (const line of recordTrajectories({
        envId: options.env,
        envs: envRegistry,
        policies: policyRegistry,
        policyNames: options.policy
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
        rows,
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      })) {
        if (!stream.write(`${JSON.stringify(line)}\n`))
          await new Promise<void>((resolve) => stream.once('drain', () => resolve()))
        count++
        reward += line.reward
      }
      await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())))
      process.stdout.write(`${options.out}\t${count} trajectories\tmean reward ${(reward / Math.max(1, count)).toFixed(3)}\n`)
    })
  registerTrainSmokeCommand(train)
  registerTrainBudgetCommand(train)
  registerTrainVerdictCommand(train)
}
