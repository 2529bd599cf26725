/** @module cli: option helpers shared by the `releaseops release …` commands. */
import { type Command, type CommandUnknownOpts, InvalidArgumentError, type OptionValues } from '@commander-js/extra-typings'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { datasetOfCanonical, datasetOfRelease } from '../../release/inputs/infer-dataset.js'
import { addOutDirOption } from '../flag-vocabulary.js'
import type { OptsOf } from '../opts-of.js'
import { startHeartbeat } from '../progress.js'

/** Collects a repeatable option into a list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value]
}

export function parseRatio(value: string): number {
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1) throw new InvalidArgumentError('expected a number between 0 and 1')
  return parsed
}

/** Stripping trailing label codes is the default (as in the original); `--keep-trailing-codes` opts out. */
export function trailingCodes(flags: { stripTrailingCodes?: boolean; keepTrailingCodes?: boolean }): boolean {
  if (flags.stripTrailingCodes && flags.keepTrailingCodes) {
    const message = 'give --strip-trailing-codes or --keep-trailing-codes, not both'
    throw new InvalidInputError({
      code: 'conflicting_options',
      path: '--keep-trailing-codes',
      message,
      issues: [{ code: 'conflicting_options', path: '--keep-trailing-codes', message }],
    })
  }
  return !flags.keepTrailingCodes
}

/** Prints a stage's summary as one JSON line on stdout. */
export function printSummary(summary: unknown): void {
  process.stdout.write(`${JSON.stringify(summary)}\n`)
}

interface ValidationReport {
  valid: boolean
  splits: unknown
  cross_split_errors: unknown
  report_errors: unknown
}

/**
 * Prints a validation report's summary line (`first` fields, then valid, splits and the errors, then
 * `more`) and sets exit code 1 when the release is invalid.
 */
export function printValidation(options: { report: ValidationReport; first?: object; more?: object }): void {
  const { report } = options
  printSummary({
    ...options.first,
    valid: report.valid,
    splits: report.splits,
    cross_split_errors: report.cross_split_errors,
    report_errors: report.report_errors,
    ...options.more,
  })
  if (!report.valid) process.exitCode = 1
}

/** The task-file options after `--dataset`, `--registry` and `--corpus`, which are optional in every form. */
function addTaskFileTail<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option('--task-config <file>', 'task config JSON (default: the four native metadata fields)')
    .option('--metadata-fields <fields...>', 'prompt metadata fields, overriding the task config')
    .option('--grading-config <file>', 'grading standard JSON')
    .option('--grading-manifest <file>', 'grading manifest; its entry for --dataset is verified by sha256')
}

/** The task files every SFT command takes. */
export function addTaskFileOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return addTaskFileTail(
    command
      .requiredOption('--dataset <name>', 'dataset name (configuration, e.g. shougang)')
      .requiredOption('--registry <file>', 'leaf registry JSON')
      .requiredOption('--corpus <file>', 'category corpus JSON (must cover the registry exactly)'),
  )
}

/** The task files where the input records its dataset (a canonical build's or a release's report): `--dataset` may be left out. */
export function addRecordedTaskFileOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return addTaskFileTail(
    command
      .option('--dataset <name>', 'dataset name (default: the one the input records)')
      .requiredOption('--registry <file>', 'leaf registry JSON')
      .requiredOption('--corpus <file>', 'category corpus JSON (must cover the registry exactly)'),
  )
}

/** The task files, every one optional (another flag supplies them, as `pipeline --demo`). */
export function addOptionalTaskFileOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) {
  return addTaskFileTail(
    command
      .option('--dataset <name>', 'dataset name (configuration, e.g. shougang)')
      .option('--registry <file>', 'leaf registry JSON')
      .option('--corpus <file>', 'category corpus JSON (must cover the registry exactly)'),
  )
}

export interface TaskFileFlags {
  dataset: string
  registry: string
  corpus: string
  taskConfig?: string
  metadataFields?: string[]
  gradingConfig?: string
  gradingManifest?: string
}

/** Commander flags → task options (absent flags left out). */
export function taskFileOptions(flags: TaskFileFlags) {
  return {
    dataset: flags.dataset,
    registry: flags.registry,
    corpus: flags.corpus,
    ...(flags.taskConfig ? { taskConfig: flags.taskConfig } : {}),
    ...(flags.metadataFields ? { metadataFields: flags.metadataFields } : {}),
    ...(flags.gradingConfig ? { gradingConfig: flags.gradingConfig } : {}),
    ...(flags.gradingManifest ? { gradingManifest: flags.gradingManifest } : {}),
  }
}

/** What a release validator reports: the fields a `validate` command prints. */
interface ValidationSummary {
  valid: boolean
  splits: unknown
  cross_split_errors: unknown
  report_errors: unknown
  canonical_errors?: unknown
}

/**
 * `<parent> validate --dataset-dir <dir> [--report <file>] [--overwrite]` plus the task files: runs
 * `validate`, prints its summary and exits 1 when the release is invalid.
 */
export function addReleaseValidateCommand(
  parent: CommandUnknownOpts,
  options: {
    description: string
    /** Offer `--canonical <file>`: check the release against the records it came from. */
    canonical?: boolean
    validate(
      options: ReturnType<typeof taskFileOptions> & {
        datasetDir: string
        canonical?: string
        report?: string
        overwrite?: boolean
      },
    ): Promise<ValidationSummary>
  },
): void {
  const command = addRecordedTaskFileOptions(
    parent
      .command('validate')
      .description(options.description)
      .requiredOption('--dataset-dir <dir>', 'the release directory')
      .option('--report <file>', 'validation report JSON to write'),
  ).option('--overwrite', 'replace an existing report')
  // The flags as inferred from the declarations above; `--canonical` only where the validator reads it.
  const run = async (flags: OptsOf<typeof command> & { canonical?: string }) => {
    const dataset = datasetOfRelease({ datasetDir: flags.datasetDir, dataset: flags.dataset })
    const beat = startHeartbeat(`${parent.name()} validate`, () => `checking ${flags.datasetDir}`)
    const report = await options
      .validate({
        ...taskFileOptions({ ...flags, dataset }),
        datasetDir: flags.datasetDir,
        ...(flags.canonical ? { canonical: flags.canonical } : {}),
        ...(flags.report ? { report: flags.report } : {}),
        ...(flags.overwrite ? { overwrite: true } : {}),
      })
      .finally(() => beat.stop())
    printValidation({ report, more: report.canonical_errors ? { canonical_errors: report.canonical_errors } : {} })
  }
  if (options.canonical)
    command.option('--canonical <file>', 'the canonical all.json it came from (sources, labels and splits)').action(run)
  else command.action(run)
}

/** `--canonical`, `--out-dir`, the task files, the label-gap waivers, `--formal` and `--failed-audit`. */
export function addExportOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return addRecordedTaskFileOptions(
    addOutDirOption(command.requiredOption('--canonical <file>', 'canonical all.json with embedded splits'), {
      description: 'release directory (must not exist or be empty)',
      aliases: ['--output-dir'],
      required: true,
    }),
  )
    .option('--allow-label-gaps <label>', 'waive the label-gap gate for this category id or level; repeatable', collect, [])
    .option('--allow-any-label-gap', 'waive the label-gap gate for every label')
    .option('--formal', 'only allow datasets in formal_datasets of --config-file')
    .option('--config-file <file>', 'datasets config (for --formal)')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON (default: <out-dir>.failed.json)')
}

/** Flags of the commands that export a release from split canonical records (`sft export`, `rl export`). */
export type ExportFlags = OptsOf<ReturnType<typeof addExportOptions<[], Record<never, never>, Record<never, never>>>>

/** Export flags → the export stage's options (absent flags left out). */
export function exportOptions(flags: ExportFlags) {
  return {
    ...taskFileOptions({ ...flags, dataset: datasetOfCanonical({ canonical: flags.canonical, dataset: flags.dataset }) }),
    canonical: flags.canonical,
    outputDir: flags.outDir,
    allowLabelGaps: flags.allowLabelGaps,
    ...(flags.allowAnyLabelGap ? { allowAnyLabelGap: true } : {}),
    ...(flags.formal ? { formal: true } : {}),
    ...(flags.configFile ? { configFile: flags.configFile } : {}),
    ...(flags.failedAudit ? { failedAudit: flags.failedAudit } : {}),
  }
}
