/** @module cli: `releaseops release sft export|validate`: the legacy stage1/stage2 SFT release. */
import type { Command } from 'commander'
import { runSftExport } from '../../release/sft/run-sft-export.js'
import { runSftValidate } from '../../release/sft/run-sft-validate.js'
import { createProgress } from '../progress.js'
import {
  addReleaseValidateCommand,
  addTaskFileOptions,
  collect,
  printSummary,
  type TaskFileFlags,
  taskFileOptions,
} from './release-options.js'

interface ExportFlags extends TaskFileFlags {
  canonical: string
  outputDir: string
  allowLabelGaps: string[]
  allowAnyLabelGap?: boolean
  formal?: boolean
  configFile?: string
  failedAudit?: string
}

export function registerReleaseSftCommand(release: Command): void {
  const sft = release
    .command('sft')
    .description('The legacy stage1/stage2 SFT release (exactly [system, user, assistant] per row).')
  addTaskFileOptions(
    sft
      .command('export')
      .description('Export train/val/test Parquet + export_report.json from split canonical records, published atomically.')
      .requiredOption('--canonical <file>', 'canonical all.json with embedded splits')
      .requiredOption('--output-dir <dir>', 'release directory (must not exist or be empty)'),
  )
    .option('--allow-label-gaps <label>', 'waive the label-gap gate for this category id or level; repeatable', collect, [])
    .option('--allow-any-label-gap', 'waive the label-gap gate for every label')
    .option('--formal', 'only allow datasets in formal_datasets of --config-file')
    .option('--config-file <file>', 'datasets config (for --formal)')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON (default: <output-dir>.failed.json)')
    .action(async (flags: ExportFlags) => {
      const progress = createProgress('sft export splits')
      try {
        const report = await runSftExport({
          ...taskFileOptions(flags),
          canonical: flags.canonical,
          outputDir: flags.outputDir,
          allowLabelGaps: flags.allowLabelGaps,
          ...(flags.allowAnyLabelGap ? { allowAnyLabelGap: true } : {}),
          ...(flags.formal ? { formal: true } : {}),
          ...(flags.configFile ? { configFile: flags.configFile } : {}),
          ...(flags.failedAudit ? { failedAudit: flags.failedAudit } : {}),
          onProgress: (done, total) => progress.update(done, total),
        })
        printSummary({ output_dir: flags.outputDir, splits: report.splits, label_gap_gate: report.label_gap_gate.status })
      } finally {
        progress.stop()
      }
    })
  addReleaseValidateCommand(sft, {
    description: 'Read a legacy SFT release back and check every row, stage pair, split overlap and hash; exit 1 if invalid.',
    validate: runSftValidate,
  })
}
