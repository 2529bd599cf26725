/** @module cli: `releaseops release canonical build|split|quarantine-conflicts`. */
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings'
import { runCanonicalBuild } from '../../release/canonical/run-canonical-build.js'
import { runCanonicalSplit } from '../../release/canonical/run-canonical-split.js'
import { runQuarantineConflicts } from '../../release/canonical/run-quarantine-conflicts.js'
import type { SplitReport } from '../../release/canonical/split-records.js'
import { unresolvedLines } from '../../release/canonical/unresolved-labels.js'
import { parseInteger } from '../parse-options.js'
import { parseRatio, printSummary } from './release-options.js'

/** `T` without the keys whose value is undefined (what `defined` returns). */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>
}

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Defined<T>

/** The split's notes: records moved into train, categories too small for val and test. */
function printSplitNotes(dataset: string, report: SplitReport): void {
  const moved = report.train_coverage.moves.filter((move) => move.reason !== 'swap')
  if (moved.length > 0)
    process.stderr.write(
      `note[train_coverage] ${dataset}: ${moved.length} record(s) moved into train so every category and level has one there (split_report.json: train_coverage.moves)\n`,
    )
  const small = report.too_small_for_val_test
  if (small.length > 0)
    process.stderr.write(
      `note[too_small_for_val_test] ${dataset}: ${small.length} categor${small.length === 1 ? 'y has' : 'ies have'} fewer records than splits: ${small
        .slice(0, 10)
        .map((entry) => `${entry.category_id} (${entry.records})`)
        .join(', ')}${small.length > 10 ? ', …' : ''}\n`,
    )
}

export function registerReleaseCanonicalCommand(release: CommandUnknownOpts): void {
  const canonical = release
    .command('canonical')
    .description('Canonical schema-v2 records: build, quarantine prompt conflicts, split.')
  for (const register of [registerBuild, registerQuarantineConflicts, registerSplit]) register(canonical)
}

function registerBuild(canonical: CommandUnknownOpts): void {
  canonical
    .command('build')
    .description('Resolve processed records against the dataset config, registry and corpus into <canonical-dir>/<dataset>/.')
    .requiredOption('--dataset <name>', 'dataset name, configured in --config-file')
    .requiredOption('--config-file <file>', 'datasets config JSON')
    .requiredOption('--canonical-dir <dir>', 'output root; writes <dir>/<dataset>/all.json and resolution_report.json')
    .option('--processed-dir <dir>', 'reads <dir>/<dataset>/all.json')
    .option('--processed <file>', 'processed records file')
    .option('--registry-dir <dir>', 'reads <dir>/<registry_source or dataset>.registry.json')
    .option('--registry <file>', 'leaf registry JSON')
    .option('--corpus-dir <dir>', 'reads <dir>/<dataset>.corpus.json')
    .option('--corpus <file>', 'category corpus JSON')
    .option('--formal', 'only allow datasets in formal_datasets of --config-file')
    .option('--overwrite', 'replace an existing canonical dataset')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON')
    .option('--allow-unresolved', 'publish even when labelled records resolve to no category (counted in the report)')
    .action(async (flags) => {
      const report = await runCanonicalBuild(defined({ ...flags }))
      for (const line of unresolvedLines(report.dataset, report.labels)) process.stderr.write(`${line}\n`)
      printSummary({
        dataset: report.dataset,
        output_records: report.output_records,
        status_counts: report.status_counts,
        labels: report.labels,
      })
    })
}

function registerQuarantineConflicts(canonical: CommandUnknownOpts): void {
  canonical
    .command('quarantine-conflicts')
    .description('Mark records whose prompt key has several targets as prompt_conflict (run before split).')
    .requiredOption('--canonical-dir <dir>', 'canonical root')
    .requiredOption('--dataset <name>', 'dataset name')
    .option('--level-field <field>', 'the level label field', 'data_level')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON')
    .action(async (flags) => {
      const report = await runQuarantineConflicts(defined({ ...flags }))
      if (report.unsplit)
        process.stderr.write(`note[unsplit] ${report.dataset}: its split was taken back; run \`release canonical split\` again\n`)
      printSummary({ dataset: report.dataset, quarantined_records: report.quarantined_records, unsplit: report.unsplit ?? false })
    })
}

function registerSplit(canonical: CommandUnknownOpts): void {
  canonical
    .command('split')
    .description('Assign seeded train/val/test splits (random = stratified by category and level, or group).')
    .requiredOption('--canonical-dir <dir>', 'canonical root')
    .requiredOption('--dataset <name>', 'dataset name')
    .addOption(new Option('--split-type <type>', 'random or group').choices(['random', 'group'] as const).default('random'))
    .option('--group-key <path>', 'dotted path of the group key, e.g. metadata.table_name')
    .option('--train-ratio <r>', 'train share', parseRatio, 0.8)
    .option('--val-ratio <r>', 'val share', parseRatio, 0.1)
    .option('--test-ratio <r>', 'test share', parseRatio, 0.1)
    .option('--seed <n>', 'split seed', parseInteger, 42)
    .option('--level-field <field>', 'the level label field (stratification)', 'data_level')
    .option('--overwrite', 'replace an existing split')
    .option('--formal', 'only allow datasets in formal_datasets of --config-file')
    .option('--config-file <file>', 'datasets config (for --formal)')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON')
    .action(async (flags) => {
      const report = await runCanonicalSplit(
        defined({
          canonicalDir: flags.canonicalDir,
          dataset: flags.dataset,
          splitType: flags.splitType,
          groupKey: flags.groupKey,
          ratios: [flags.trainRatio, flags.valRatio, flags.testRatio] as const,
          seed: flags.seed,
          levelField: flags.levelField,
          overwrite: flags.overwrite,
          formal: flags.formal,
          configFile: flags.configFile,
          failedAudit: flags.failedAudit,
        }),
      )
      const reasons = Object.entries(report.excluded.by_reason).map(([reason, count]) => `${reason} ${count}`)
      if (reasons.length > 0)
        process.stderr.write(
          `note[split_excluded] ${flags.dataset}: ${report.excluded.count} record(s) in no split: ${reasons.join(', ')}\n`,
        )
      printSplitNotes(flags.dataset, report)
      printSummary({
        dataset: flags.dataset,
        sizes: report.sizes,
        excluded: report.excluded.count,
        excluded_by_reason: report.excluded.by_reason,
        joined_by_prompt_key: report.joined_by_prompt_key,
        train_coverage: report.train_coverage,
      })
    })
}
