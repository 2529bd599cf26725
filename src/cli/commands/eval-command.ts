/**
 * @module cli: `releaseops eval`: run policies, or a model behind an OpenAI-compatible endpoint (or a local
 * GGUF), over a dataset; print a table; write the summary and the episodes. `eval compare` pairs two runs.
 */
import { createWriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { defaultEnvId, envRegistry, policyRegistry } from '../../envs/index.js'
import { addRunFacts } from '../../eval/add-run-facts.js'
import { buildSummary } from '../../eval/build-summary.js'
import { ceilingPolicies, markCeiling } from '../../eval/ceiling-policies.js'
import { episodeLine } from '../../eval/episode-record.js'
import { loadDataset } from '../../eval/load-dataset.js'
import { runEval } from '../../eval/run-eval.js'
import type { OptsOf } from '../opts-of.js'
import { checkOutputFile } from '../output-paths.js'
import { parsePositiveInteger } from '../parse-options.js'
import { createProgress } from '../progress.js'
import { registerEvalCompareCommand } from './eval-compare-command.js'
import { addLlmEvalOptions, isLlmEval, runLlmEvalAction } from './eval-llm-action.js'
import { renderSummaryTable } from './eval-summary-table.js'

export { renderSummaryTable } from './eval-summary-table.js'

/** `eval`'s options: a policy eval's, then the LLM eval's. */
function declareEvalCommand(program: CommandUnknownOpts) {
  const command = program
    .command('eval')
    .description(
      'Run policies, or a model (--model/--base-url, or --gguf), over a dataset split or JSONL file; print a summary table.',
    )
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--dataset <split|file.jsonl>', 'a split name the env generates, or a JSONL file of rows', 'eval')
    .option('--policy <names>', 'comma-separated policy names (default: every baseline of the env)')
    .option('--out <file>', 'write the summary JSON (keyed by policy or model name) here')
    .option('--episodes-out <file>', 'write one JSON object per episode here (an LLM run appends as episodes finish)')
    .option('--workers <n>', 'worker threads for policies (1 runs in this thread)', parsePositiveInteger, 1)
    .option(
      '--repeat <n>',
      'run every row n times (throughput runs; intervals still rest on the distinct rows)',
      parsePositiveInteger,
      1,
    )
    .option('--max-steps <n>', "override the env's step limit", parsePositiveInteger)
    .option('--no-ceiling', "leave out the env's privileged ceiling policy (the oracle), which every report shows by default")
  return addLlmEvalOptions(command)
}

/** `eval`'s flags, as commander infers them from the declarations. */
export type EvalFlags = OptsOf<ReturnType<typeof declareEvalCommand>>

export function registerEvalCommand(program: CommandUnknownOpts): void {
  const command = declareEvalCommand(program)
  command.action(async (options) => {
    // Before any episode runs: a bad output path must not cost the whole run.
    if (options.out) await checkOutputFile(options.out, '--out')
    if (options.episodesOut) await checkOutputFile(options.episodesOut, '--episodes-out')
    if (isLlmEval(options)) return runLlmEvalAction(options)
    await runPolicyEval(options)
  })
  registerEvalCompareCommand(command)
}

async function runPolicyEval(options: EvalFlags): Promise<void> {
  const registration = envRegistry.get(options.env)
  const chosen = options.policy
    ? options.policy
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : policyRegistry.names(options.env).filter((name) => !policyRegistry.get(options.env, name).privileged)
  const ceiling = options.ceiling ? ceilingPolicies(options.env).filter((name) => !chosen.includes(name)) : []
  const policies = [...chosen, ...ceiling]
  if (chosen.length === 0) {
    throw new InvalidInputError({ code: 'no_policy', message: `No policy given and ${options.env} registers none.`, issues: [] })
  }
  const dataset = await loadDataset({ envId: options.env, source: options.dataset, registry: envRegistry })
  const rows = Array.from({ length: options.repeat }, () => dataset.rows).flat()
  const progress = createProgress('eval')
  const started = performance.now()
  const records = await runEval({
    envId: options.env,
    rows,
    policies,
    workers: options.workers,
    recordSteps: options.episodesOut !== undefined,
    ...(options.maxSteps === undefined ? {} : { maxEpisodeSteps: options.maxSteps }),
    onProgress: (done, total) => progress.update(done, total),
  })
  progress.stop()
  const seconds = (performance.now() - started) / 1000
  // A repeat replays the same row: its episodes are one cluster, so repeats never narrow an interval.
  const rowCount = dataset.rows.length
  const summary = buildSummary(records, registration.dataset?.groupBy ?? [], {
    rowOf: (record) => record.rowIndex % rowCount,
  })
  markCeiling(summary, ceilingPolicies(options.env))
  addRunFacts(summary, {
    env_id: options.env,
    dataset: dataset.name,
    dataset_sha256: dataset.sha256,
    rows: dataset.rows.length,
    repeat: options.repeat,
    ...(options.episodesOut
      ? { episodes_path: options.out ? relative(dirname(options.out), options.episodesOut) : options.episodesOut }
      : {}),
  })
  process.stdout.write(`${renderSummaryTable(summary)}\n`)
  process.stderr.write(
    `${records.length} episodes in ${seconds.toFixed(2)} s (${Math.round(records.length / seconds)} episodes/s, ${options.workers} worker(s))\n`,
  )
  if (options.out) {
    await mkdir(dirname(options.out), { recursive: true })
    await writeFile(options.out, `${JSON.stringify(summary, null, 2)}\n`)
  }
  if (options.episodesOut) await writeEpisodes(options.episodesOut, records.map(episodeLine))
}

async function writeEpisodes(path: string, lines: readonly object[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const stream = createWriteStream(path)
  const failed = new Promise<never>((_, reject) => stream.once('error', reject))
  failed.catch(() => {})
  for (const line of lines) {
    if (!stream.write(`${JSON.stringify(line)}\n`)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()))
  }
  await Promise.race([failed, new Promise<void>((resolve) => stream.end(() => resolve()))])
}
