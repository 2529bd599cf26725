/**
 * @module cli: `releaseops release rl export|validate|validate-cascade`: the VeRL RL release (a
 * stage-1/stage-2 pair per record in five columns) and the check of an `rl-cascade` mixture.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { runValidateCascade } from '../../release/mixtures/validate-cascade.js'
import { runRlExport } from '../../release/rl/run-rl-export.js'
import { runRlValidate } from '../../release/rl/run-rl-validate.js'
import {
  addExportOptions,
  addReleaseValidateCommand,
  collect,
  exportOptions,
  printSummary,
  printValidation,
} from './release-options.js'

export function registerReleaseRlCommand(release: CommandUnknownOpts): void {
  const rl = release
    .command('rl')
    .description('VeRL RL releases: stage1/stage2 pairs in the five VeRL columns, and cascade checks.')
  addExportOptions(
    rl
      .command('export')
      .description(
        'Export train/val/test Parquet (data_source, prompt, ability, reward_model, extra_info) + export_report.json, atomically.',
      ),
  ).action(async (flags) => {
    const report = await runRlExport(exportOptions(flags))
    printSummary({ output_dir: flags.outDir, splits: report.splits, label_gap_gate: report.label_gap_gate.status })
  })
  addReleaseValidateCommand(rl, {
    canonical: true,
    description: 'Read an RL release back and check every row, stage pair, order, split overlap and hash; exit 1 if invalid.',
    validate: runRlValidate,
  })
  rl.command('validate-cascade')
    .description(
      'Check an rl-cascade mixture: stage1-only rows, the RL row contract, ids, order, counts, hashes; exit 1 if invalid.',
    )
    .requiredOption('--dataset-dir <dir>', 'the mixture release directory')
    .requiredOption('--registry <file>', 'leaf registry JSON')
    .requiredOption('--corpus <file>', 'category corpus JSON')
    .option('--task-config <file>', 'task config JSON (default: the four native metadata fields)')
    .option('--metadata-fields <fields...>', 'prompt metadata fields, overriding the task config')
    .requiredOption('--grading-manifest <file>', "grading manifest; each dataset's entry is verified by sha256")
    .option('--input <dataset=dir>', 'an input release, to re-verify its lineage hashes; repeatable', collect, [])
    .option('--report <file>', 'validation report JSON to write')
    .option('--overwrite', 'replace an existing report')
    .action(async (flags) => {
      const report = await runValidateCascade({
        datasetDir: flags.datasetDir,
        registry: flags.registry,
        corpus: flags.corpus,
        gradingManifest: flags.gradingManifest,
        ...(flags.taskConfig ? { taskConfig: flags.taskConfig } : {}),
        ...(flags.metadataFields ? { metadataFields: flags.metadataFields } : {}),
        inputs: flags.input,
        ...(flags.report ? { report: flags.report } : {}),
        ...(flags.overwrite ? { overwrite: true } : {}),
      })
      printValidation({ report, more: { lineage_errors: report.lineage_errors } })
    })
}
