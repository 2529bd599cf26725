/**
 * @module cli: `releaseops eval compare a b`: pairs two runs by row and prints every metric's difference
 * (b − a) with a paired bootstrap 95% interval and, for rates, an exact McNemar p-value; per slice.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { type Comparison, compareRuns } from '../../eval/compare-evals.js'
import { loadComparedRun } from '../../eval/load-compared-run.js'
import { formatTable } from '../format-table.js'
import { parseInteger, parsePositiveInteger } from '../parse-options.js'

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`

function renderComparison(comparison: Comparison, metrics?: readonly string[]): string {
  const rows: string[][] = []
  for (const slice of comparison.slices) {
    for (const metric of slice.metrics) {
      if (metrics && !metrics.includes(metric.metric)) continue
      rows.push([
        slice.slice,
        metric.metric,
        String(slice.pairs),
        metric.a.toFixed(3),
        metric.b.toFixed(3),
        signed(metric.diff),
        metric.ci95 ? `[${signed(metric.ci95[0])}, ${signed(metric.ci95[1])}]` : '-',
        metric.mcnemar ? `${metric.mcnemar.a_only}/${metric.mcnemar.b_only}` : '',
        metric.mcnemar ? metric.mcnemar.p_value.toFixed(4) : '',
      ])
    }
  }
  const header = ['slice', 'metric', 'pairs', 'a', 'b', 'b-a', 'bootstrap 95%', 'a/b only', 'McNemar p']
  return [
    `a = ${comparison.a.label} (${comparison.a.episodes} episodes${comparison.a.unscored ? `, ${comparison.a.unscored} unscored left out` : ''})`,
    `b = ${comparison.b.label} (${comparison.b.episodes} episodes${comparison.b.unscored ? `, ${comparison.b.unscored} unscored left out` : ''})`,
    `${comparison.pairs} pairs; unpaired: ${comparison.unpaired.a} in a, ${comparison.unpaired.b} in b; bootstrap ${comparison.bootstrap.resamples} row resamples, seed ${comparison.bootstrap.seed}`,
    '',
    formatTable(header, rows),
  ].join('\n')
}

export function registerEvalCompareCommand(evalCommand: CommandUnknownOpts): void {
  evalCommand
    .command('compare <a> <b>')
    .description(
      'Pair two eval runs by row (episodes .jsonl, or summary .json with run.episodes_path; `file#policy` picks one policy).',
    )
    .option('--out <file>', 'write the comparison JSON here')
    .option('--group-by <fields>', 'row fields to slice by', 'split,family')
    .option('--resamples <n>', 'bootstrap resamples', parsePositiveInteger, 10_000)
    .option('--bootstrap-seed <n>', 'bootstrap seed', parseInteger, 0)
    .option('--metrics <names>', 'only print these metrics (comma-separated, e.g. safe_ship_rate,avg_reward)')
    // `--out` is also an option of `eval`, which commander gives the parent: read the merged options.
    .action(async (a, b, _local, command) => {
      const options = command.optsWithGlobals()
      const [left, right] = await Promise.all([loadComparedRun(a), loadComparedRun(b)])
      const comparison = compareRuns({
        a: left,
        b: right,
        groupBy: options.groupBy
          .split(',')
          .map((field) => field.trim())
          .filter(Boolean),
        resamples: options.resamples,
        seed: options.bootstrapSeed,
      })
      if (comparison.pairs === 0) {
        throw new InvalidInputError({
          code: 'no_paired_episodes',
          message: `${left.label} and ${right.label} share no rows: compare runs over the same dataset.`,
          issues: [],
        })
      }
      const metrics = options.metrics
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean)
      process.stdout.write(`${renderComparison(comparison, metrics)}\n`)
      if (options.out) {
        await mkdir(dirname(options.out), { recursive: true })
        await writeFile(options.out, `${JSON.stringify(comparison, null, 2)}\n`)
      }
    })
}
