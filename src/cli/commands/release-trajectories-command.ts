/**
 * @module cli: `releaseops release trajectories collect|export|validate|stats`: native-tool trajectory SFT
 * releases (see `src/release/trajectories/README.md`).
 */
import { type Command, type CommandUnknownOpts, InvalidArgumentError, type OptionValues } from '@commander-js/extra-typings'
import type { SplitName } from '../../release/contracts/canonical-record.js'
import { datasetOfRelease } from '../../release/inputs/infer-dataset.js'
import { runTrajectoryCollect } from '../../release/trajectories/run-trajectory-collect.js'
import { runTrajectoryExport } from '../../release/trajectories/run-trajectory-export.js'
import { runTrajectoryStats } from '../../release/trajectories/run-trajectory-stats.js'
import { runTrajectoryValidate } from '../../release/trajectories/run-trajectory-validate.js'
import { type ThinkOverLimitPolicy, thinkOverLimitPolicies } from '../../release/trajectories/trajectory-format.js'
import { addOutDirOption } from '../flag-vocabulary.js'
import { createProgress } from '../progress.js'
import {
  addRecordedTaskFileOptions,
  addTaskFileOptions,
  collect,
  printSummary,
  printValidation,
  taskFileOptions,
} from './release-options.js'

function positiveInteger(value: string): number {
  const parsed = Number(value)
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new InvalidArgumentError('expected a positive integer')
  return parsed
}

function overLimitPolicy(value: string): ThinkOverLimitPolicy {
  if (!(thinkOverLimitPolicies as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${thinkOverLimitPolicies.join(', ')}`)
  return value as ThinkOverLimitPolicy
}

function gateOptions(flags: { allowLabelGaps: string[]; allowAnyLabelGap?: true; failedAudit?: string }) {
  return {
    allowLabelGaps: flags.allowLabelGaps,
    ...(flags.allowAnyLabelGap ? { allowAnyLabelGap: true } : {}),
    ...(flags.failedAudit ? { failedAudit: flags.failedAudit } : {}),
  }
}

function addGateOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--allow-label-gaps <label>', 'waive the label-gap gate for this category id or level; repeatable', collect, [])
    .option('--allow-any-label-gap', 'waive the label-gap gate for every label')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON (default: <output>.failed.json)')
}

async function withProgress<T>(
  label: string,
  run: (update: (split: SplitName, done: number, total: number) => void) => Promise<T>,
): Promise<T> {
  const progress = createProgress(label)
  try {
    return await run((_split, done, total) => progress.update(done, total))
  } finally {
    progress.stop()
  }
}

export function registerReleaseTrajectoriesCommand(release: CommandUnknownOpts): void {
  const trajectories = release
    .command('trajectories')
    .description('Native-tool trajectory SFT releases: collect (think-free shards), export, validate, stats.')
  for (const register of [registerCollect, registerExport, registerValidate, registerStats]) register(trajectories)
}

function registerCollect(trajectories: CommandUnknownOpts): void {
  addGateOptions(
    addTaskFileOptions(
      trajectories
        .command('collect')
        .description(
          'Write think-free JSONL shards (think-<split>-NNN.jsonl) + collect_report.json for an external reasoning writer.',
        )
        .requiredOption('--canonical <file>', 'canonical all.json with embedded splits')
        .requiredOption('--collect-dir <dir>', 'output directory (must not exist or be empty)'),
    ).option('--shard-size <n>', 'lines per shard', positiveInteger, 64),
  ).action(async (flags) => {
    const report = await withProgress('trajectories collect', (onProgress) =>
      runTrajectoryCollect({
        ...taskFileOptions(flags),
        ...gateOptions(flags),
        canonical: flags.canonical,
        collectDir: flags.collectDir,
        shardSize: flags.shardSize,
        onProgress,
      }),
    )
    printSummary({ format: report.format, collect_dir: flags.collectDir, splits: report.splits, shards: report.shards.length })
  })
}

function registerExport(trajectories: CommandUnknownOpts): void {
  addGateOptions(
    addTaskFileOptions(
      addOutDirOption(
        trajectories
          .command('export')
          .description('Build, validate and atomically publish train/val/test Parquet + export_report.json.')
          .requiredOption('--canonical <file>', 'canonical all.json with embedded splits'),
        { description: 'release directory (must not exist or be empty)', aliases: ['--output-dir'], required: true },
      ).requiredOption('--think-source <source>', 'mock | none | file:<jsonl file or directory of filled collect lines>'),
    )
      .option('--max-think-tokens <n>', 'approximate token limit per thought', positiveInteger, 128)
      .option('--think-over-limit <policy>', 'error | truncate | discard', overLimitPolicy, 'error')
      .option('--formal', 'only allow datasets in formal_datasets of --config-file; refuses mock thoughts')
      .option('--config-file <file>', 'datasets config (for --formal)'),
  ).action(async (flags) => {
    const report = await withProgress('trajectories export', (onProgress) =>
      runTrajectoryExport({
        ...taskFileOptions(flags),
        ...gateOptions(flags),
        canonical: flags.canonical,
        outputDir: flags.outDir,
        thinkSource: flags.thinkSource,
        maxThinkTokens: flags.maxThinkTokens,
        thinkOverLimit: flags.thinkOverLimit,
        ...(flags.formal ? { formal: true } : {}),
        ...(flags.configFile ? { configFile: flags.configFile } : {}),
        onProgress,
      }),
    )
    printSummary({
      format: report.format,
      output_dir: flags.outDir,
      think_source: report.think.source,
      enable_thinking: report.enable_thinking,
      splits: Object.fromEntries(
        Object.entries(report.splits).map(([split, summary]) => [split, { rows: summary.rows, by_class: summary.by_class }]),
      ),
      valid: report.validation?.valid ?? false,
    })
  })
}

function registerValidate(trajectories: CommandUnknownOpts): void {
  addRecordedTaskFileOptions(
    trajectories
      .command('validate')
      .description('Re-read a trajectory release and re-execute every tool call; exit 1 if invalid.')
      .requiredOption('--dataset-dir <dir>', 'the release directory')
      .option('--canonical <file>', 'the canonical all.json it came from (checks provenance, labels and splits)')
      .option('--report <file>', 'validation report JSON to write'),
  )
    .option('--overwrite', 'replace an existing report')
    .action((flags) => {
      const dataset = datasetOfRelease({ datasetDir: flags.datasetDir, dataset: flags.dataset })
      const report = runTrajectoryValidate({
        ...taskFileOptions({ ...flags, dataset }),
        datasetDir: flags.datasetDir,
        ...(flags.canonical ? { canonical: flags.canonical } : {}),
        ...(flags.report ? { report: flags.report } : {}),
        ...(flags.overwrite ? { overwrite: true } : {}),
      })
      printValidation({ report, first: { format: report.format } })
    })
}

function registerStats(trajectories: CommandUnknownOpts): void {
  trajectories
    .command('stats')
    .description('Character and Qwen3-token lengths per split and class of the qwen3.5 rendering, with snapshots.')
    .requiredOption('--dataset-dir <dir>', 'the release directory')
    .option('--max-length <n>', 'token budget: report the rows over it', positiveInteger)
    .option('--snapshot-rows <n>', 'rendered rows to include (first of each class per split)', positiveInteger, 4)
    .option('--report <file>', 'stats report JSON to write')
    .option('--overwrite', 'replace an existing report')
    .action(async (flags) => {
      const report = await withProgress('trajectories stats', (onProgress) =>
        runTrajectoryStats({
          datasetDir: flags.datasetDir,
          snapshotRows: flags.snapshotRows,
          ...(flags.maxLength ? { maxLength: flags.maxLength } : {}),
          ...(flags.report ? { report: flags.report } : {}),
          ...(flags.overwrite ? { overwrite: true } : {}),
          onProgress,
        }),
      )
      printSummary({
        format: report.format,
        max_length: report.max_length,
        splits: Object.fromEntries(Object.entries(report.splits).map(([split, summary]) => [split, summary.all])),
      })
    })
}
