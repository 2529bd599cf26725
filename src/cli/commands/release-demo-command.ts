/** @module cli: `releaseops release demo-data` and `releaseops release pipeline`. */

import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { type LabelAccounting, unresolvedLines } from '../../release/canonical/unresolved-labels.js'
import { runDemoData } from '../../release/demo/write-demo-data.js'
import { runDemoPipeline, runPipeline } from '../../release/pipeline/run-pipeline.js'
import { addOutDirOption } from '../flag-vocabulary.js'
import type { OptsOf } from '../opts-of.js'
import { parseInteger, parsePositiveInteger } from '../parse-options.js'
import { startHeartbeat } from '../progress.js'
import { addOptionalTaskFileOptions, printSummary, taskFileOptions, trailingCodes } from './release-options.js'
import { delimiterHelp, encodingHelp, parseCsvDelimiter, parseCsvEncoding } from './release-preprocess-command.js'

/** A line per finished stage, and between them a line every few seconds naming the last one (issue 37). */
function stageLogger(): { onStage(stage: string, seconds: number, rows: number): void; stop(): void } {
  let finished: { count: number; last?: string } = { count: 0 }
  const beat = startHeartbeat('release pipeline', () =>
    finished.last ? `${finished.count} stages done (last ${finished.last}), the next running` : 'first stage running',
  )
  return {
    onStage(stage, seconds, rows) {
      finished = { count: finished.count + 1, last: stage }
      process.stderr.write(`${stage.padEnd(26)} ${seconds.toFixed(2).padStart(7)} s  ${rows} rows\n`)
    },
    stop: () => beat.stop(),
  }
}

/** `flags` with `names` checked present (refused with `missing_option` otherwise), typed so. */
function required<F extends object, K extends keyof F & string>(
  flags: F,
  names: readonly K[],
): F & { [P in K]-?: NonNullable<F[P]> } {
  const missing = names.filter((name) => flags[name] === undefined)
  if (missing.length > 0) {
    const list = missing.map((name) => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`)
    throw new InvalidInputError({
      code: 'missing_option',
      path: list[0] as string,
      message: `Without --demo, the pipeline needs ${list.join(', ')}.`,
      issues: list.map((flag) => ({ code: 'missing_option', path: flag, message: 'required' })),
    })
  }
  return flags as F & { [P in K]-?: NonNullable<F[P]> }
}

function declarePipeline(release: CommandUnknownOpts) {
  return addOptionalTaskFileOptions(
    addOutDirOption(
      release
        .command('pipeline')
        .description(
          'Run every stage (preprocess → canonical → audit → quarantine → split → audit → SFT export → validate) in one process.',
        ),
      { description: 'output directory', aliases: ['--out'], required: true },
    )
      .option('--demo', 'generate the demo data into <out-dir>/demo and run on it')
      .option('--rows <n>', 'demo rows', parsePositiveInteger)
      .option('--seed <n>', 'split seed', parseInteger, 42)
      .option('--data-seed <n>', 'demo data seed', parseInteger)
      .option('--input <file.xlsx>', 'spreadsheet (.xlsx/.xlsm) or CSV/TSV (without --demo)')
      .option('--encoding <name>', encodingHelp, (value: string) => parseCsvEncoding(value))
      .option('--delimiter <char>', delimiterHelp, (value: string) => parseCsvDelimiter(value))
      .option('--mapping <file>', 'column mapping (without --demo)')
      .option('--config-file <file>', 'datasets config (without --demo)')
      .option('--classification-standard <file>', 'classification standard (without --demo)')
      .option('--grading-standard <file>', 'grading standard the audit hashes (without --demo)')
      .option('--strip-trailing-codes', 'remove trailing codes from labels (the default)')
      .option('--keep-trailing-codes', 'keep trailing codes in labels')
      .option('--allow-unresolved', 'publish even when labelled records resolve to no category')
      .option('--formal', 'only allow datasets in formal_datasets of --config-file')
      .option('--no-quarantine', 'stop at the audit instead of quarantining conflicting records'),
  )
}

type PipelineFlags = OptsOf<ReturnType<typeof declarePipeline>>

export function registerReleaseDemoCommands(release: CommandUnknownOpts): void {
  addOutDirOption(
    release
      .command('demo-data')
      .description('Write the synthetic steel-maker dataset: a real .xlsx with Chinese headers plus every asset the line needs.'),
    { description: 'output directory (must not exist or be empty)', aliases: ['--out'], required: true },
  )
    .option('--rows <n>', 'spreadsheet rows', parsePositiveInteger, 2000)
    .option('--seed <n>', 'generator seed', parseInteger, 20261129)
    .action(async (flags) => {
      const summary = await runDemoData({ out: flags.outDir, rows: flags.rows, seed: flags.seed })
      printSummary({
        out: flags.outDir,
        rows: summary.rows,
        seed: summary.seed,
        row_kinds: summary.row_kinds,
        files: summary.files,
      })
    })
  declarePipeline(release).action(async (flags) => {
    const stages = stageLogger()
    const result = await pipelineRun(flags, stages.onStage).finally(() => stages.stop())
    const built = (result.report.stages as { canonical_build: { labels: LabelAccounting } }).canonical_build
    for (const line of unresolvedLines(String(result.report.dataset), built.labels)) process.stderr.write(`${line}\n`)
    printSummary(result.report)
    if (!result.valid) process.exitCode = 1
  })
}

function pipelineRun(flags: PipelineFlags, onStage: (stage: string, seconds: number, rows: number) => void) {
  return flags.demo
    ? runDemoPipeline({
        out: flags.outDir,
        seed: flags.seed,
        ...(flags.rows ? { rows: flags.rows } : {}),
        ...(flags.dataSeed !== undefined ? { dataSeed: flags.dataSeed } : {}),
        onStage,
      })
    : (() => {
        const given = required(flags, [
          'input',
          'mapping',
          'configFile',
          'classificationStandard',
          'gradingStandard',
          'dataset',
          'registry',
          'corpus',
        ])
        return runPipeline({
          ...taskFileOptions(given),
          input: given.input,
          ...(flags.encoding ? { encoding: flags.encoding } : {}),
          ...(flags.delimiter ? { delimiter: flags.delimiter } : {}),
          mapping: given.mapping,
          configFile: given.configFile,
          classificationStandard: given.classificationStandard,
          gradingStandard: given.gradingStandard,
          out: flags.outDir,
          seed: flags.seed,
          quarantine: flags.quarantine,
          stripTrailingCodes: trailingCodes(flags),
          ...(flags.allowUnresolved ? { allowUnresolved: true } : {}),
          ...(flags.formal ? { formal: true } : {}),
          onStage,
        })
      })()
}
