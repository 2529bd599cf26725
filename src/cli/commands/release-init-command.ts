/**
 * @module cli: `releaseops release init`: a data owner's catalogue and standards workbooks → the mapping,
 * standards mapping, datasets entry and task config the line needs, with a report of what was inferred
 * and what to confirm. Exit 0 when proposed, 1 when the report lists problems the line would refuse.
 */
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings'
import { initLayout, runReleaseInit } from '../../release/init/run-release-init.js'
import { printSummary } from './release-options.js'

export function registerReleaseInitCommand(release: CommandUnknownOpts): void {
  release
    .command('init')
    .description(
      'Propose the column mapping, standards mapping, datasets.json entry and task config for your own catalogue and standards, with a report of what was inferred and what to confirm.',
    )
    .requiredOption('--dataset <name>', 'dataset name (ids and file names)')
    .requiredOption('--catalogue <file>', 'the field catalogue (.xlsx or .csv)')
    .requiredOption('--classification <file.xlsx>', 'the classification standard workbook')
    .requiredOption('--grading <file.xlsx>', 'the grading standard workbook')
    .requiredOption('--out-dir <dir>', 'writes assets/mappings/, config/ and init/ under it (the runbook layout)')
    .addOption(
      new Option('--id-strategy <kind>', 'category ids: level path or the standard code')
        .choices(['path', 'code'])
        .default('path'),
    )
    .option('--overwrite', 'replace files a previous init wrote')
    .action(async (flags) => {
      const report = await runReleaseInit({
        dataset: flags.dataset,
        catalogue: flags.catalogue,
        classification: flags.classification,
        grading: flags.grading,
        outDir: flags.outDir,
        idStrategy: flags.idStrategy,
        ...(flags.overwrite ? { overwrite: true } : {}),
      })
      for (const item of report.confirm) process.stderr.write(`confirm[${item.item}] ${item.inferred} (change: ${item.change})\n`)
      for (const problem of report.problems) process.stderr.write(`problem[${problem.code}] ${problem.message}\n`)
      printSummary({
        dataset: report.dataset,
        status: report.status,
        report: `${flags.outDir}/${initLayout(report.dataset).report}`,
        written: report.written,
        next: report.next,
      })
      if (report.problems.length > 0) process.exitCode = 1
    })
}
