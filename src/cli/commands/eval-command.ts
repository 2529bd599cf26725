/** @module cli: `releaseops eval`: run policies over a dataset, print a table, write summary and episodes. */
import { createWriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Command } from 'commander'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { defaultEnvId, envRegistry, policyRegistry } from '../../envs/index.js'
import { buildSummary, type EvalSummary, summaryColumns } from '../../eval/build-summary.js'
import { episodeLine } from '../../eval/episode-record.js'
import { loadDataset } from '../../eval/load-dataset.js'
import { runEval } from '../../eval/run-eval.js'
import type { SummaryBlock } from '../../eval/summarize-episodes.js'
import { formatTable } from '../format-table.js'
import { parsePositiveInteger } from '../parse-options.js'
import { createProgress } from '../progress.js'

interface EvalCommandOptions {
  env: string
  dataset: string
  policy?: string
  out?: string
  episodesOut?: string
  workers: number
  repeat: number
  maxSteps?: number
}

const cell = (key: string, value: unknown) =>
  typeof value !== 'number' ? '' : key === 'count' ? String(value) : value.toFixed(3)

export function renderSummaryTable(summary: EvalSummary): string {
  const first = Object.values(summary)[0]?.overall
  if (!first) return '(no episodes)'
  const columns = summaryColumns(first)
  const header = ['policy', 'slice', ...columns.map((key) => key.replace(/^avg_/, '').replace(/_rate$/, ''))]
  const rows: string[][] = []
  const add = (policy: string, slice: string, block: SummaryBlock) =>
    rows.push([policy, slice, ...columns.map((key) => cell(key, block[key]))])
  for (const [policy, blocks] of Object.entries(summary)) {
    add(policy, 'overall', blocks.overall)
    for (const [group, values] of Object.entries(blocks)) {
      if (!group.startsWith('by_')) continue
      for (const [value, block] of Object.entries(values as Record<string, SummaryBlock>))
        add(policy, `${group.slice(3)}=${value}`, block)
    }
  }
  const intervals = Object.entries(summary).map(([policy, blocks]) => {
    const ci = (blocks.overall.ci95 ?? {}) as Record<string, [number, number] | null>
    const parts = Object.entries(ci).map(
      ([key, bounds]) => `${key} [${bounds?.map((bound) => bound.toFixed(3)).join(', ') ?? '-'}]`,
    )
    return `  ${policy}: ${parts.join('; ')}`
  })
  return `${formatTable(header, rows)}\n\nWilson 95% intervals (overall):\n${intervals.join('\n')}`
}

export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description('Run policies over a dataset split or JSONL file; print a summary table (the main job until the server exists).')
    .option('--env <id>', 'environment id', defaultEnvId)
    .option('--dataset <split|file.jsonl>', 'a split name the env generates, or a JSONL file of rows', 'eval')
    .option('--policy <names>', 'comma-separated policy names (default: every baseline of the env)')
    .option('--out <file>', 'write the summary JSON (keyed by policy name) here')
    .option('--episodes-out <file>', 'write one JSON object per episode here (with its steps)')
    .option('--workers <n>', 'worker threads (1 runs in this thread)', parsePositiveInteger, 1)
    .option('--repeat <n>', 'run every row n times (throughput runs)', parsePositiveInteger, 1)
    .option('--max-steps <n>', "override the env's step limit", parsePositiveInteger)
    .action(async (options: EvalCommandOptions) => {
      const registration = envRegistry.get(options.env)
      const policies = options.policy
        ? options.policy
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
        : policyRegistry.names(options.env).filter((name) => !policyRegistry.get(options.env, name).privileged)
      if (policies.length === 0) {
        throw new InvalidInputError({
          code: 'no_policy',
          message: `No policy given and ${options.env} registers none.`,
          issues: [],
        })
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
      const summary = buildSummary(records, registration.dataset?.groupBy ?? [])
      for (const block of Object.values(summary)) {
        Object.assign(block, {
          run: {
            env_id: options.env,
            dataset: dataset.name,
            dataset_sha256: dataset.sha256,
            rows: dataset.rows.length,
            repeat: options.repeat,
          },
        })
      }
      process.stdout.write(`${renderSummaryTable(summary)}\n`)
      process.stderr.write(
        `${records.length} episodes in ${seconds.toFixed(2)} s (${Math.round(records.length / seconds)} episodes/s, ${options.workers} worker(s))\n`,
      )
      if (options.out) {
        await mkdir(dirname(options.out), { recursive: true })
        await writeFile(options.out, `${JSON.stringify(summary, null, 2)}\n`)
      }
      if (options.episodesOut) await writeEpisodes(options.episodesOut, records.map(episodeLine))
    })
}

async function writeEpisodes(path: string, lines: readonly object[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  const stream = createWriteStream(path)
  for (const line of lines) {
    if (!stream.write(`${JSON.stringify(line)}\n`)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())))
}
