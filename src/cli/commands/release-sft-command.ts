/** @module cli: `releaseops release sft export|validate`: the legacy stage1/stage2 SFT release. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { runSftExport } from '../../release/sft/run-sft-export.js'
import { runSftValidate } from '../../release/sft/run-sft-validate.js'
import { createProgress } from '../progress.js'
import { addExportOptions, addReleaseValidateCommand, exportOptions, printSummary } from './release-options.js'

export function registerReleaseSftCommand(release: CommandUnknownOpts): void {
  const sft = release
    .command('sft')
    .description('The legacy stage1/stage2 SFT release (exactly [system, user, assistant] per row).')
  addExportOptions(
    sft
      .command('export')
      .description('Export train/val/test Parquet + export_report.json from split canonical records, published atomically.'),
  ).action(async (flags) => {
    const progress = createProgress('sft export splits')
    try {
      const report = await runSftExport({
        ...exportOptions(flags),
        onProgress: (done, total) => progress.update(done, total),
      })
      printSummary({ output_dir: flags.outDir, splits: report.splits, label_gap_gate: report.label_gap_gate.status })
    } finally {
      progress.stop()
    }
  })
  addReleaseValidateCommand(sft, {
    description: 'Read a legacy SFT release back and check every row, stage pair, split overlap and hash; exit 1 if invalid.',
    validate: runSftValidate,
  })
}
