/** @module cli: `releaseops release standards build`: standard workbooks → registry, corpus and standards JSON. */
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings'
import { runStandardsBuild } from '../../release/standards/run-standards-build.js'
import { printSummary } from './release-options.js'

export function registerReleaseStandardsCommand(release: CommandUnknownOpts): void {
  const standards = release.command('standards').description('The classification and grading standards as JSON assets.')
  standards
    .command('build')
    .description(
      'Standard workbooks (a leaf a row, merged ancestor cells) → registry, corpus, classification and grading standard JSON, with an alignment report.',
    )
    .requiredOption('--dataset <name>', 'dataset name (ids and file names)')
    .requiredOption(
      '--classification <file.xlsx>',
      'classification standard: level columns (一级分类… / Level 1…), code, description, examples, suggested level',
    )
    .requiredOption('--grading <file.xlsx>', 'grading standard: level (级别 / Level), description, optional name columns')
    .requiredOption('--out-dir <dir>', 'writes assets/{registries,corpora}/ and standards/ under it')
    .addOption(
      new Option('--id-strategy <kind>', 'category ids: level path or the standard code')
        .choices(['path', 'code'])
        .default('path'),
    )
    .option('--sheet <name>', 'classification worksheet (default: the first)')
    .option('--mapping <file>', 'standards mapping JSON: headers by role, null for a column the standard lacks, level_map')
    .option('--overwrite', 'replace existing files')
    .action(async (flags) => {
      const report = await runStandardsBuild({
        dataset: flags.dataset,
        classification: flags.classification,
        grading: flags.grading,
        outDir: flags.outDir,
        idStrategy: flags.idStrategy,
        ...(flags.sheet ? { sheet: flags.sheet } : {}),
        ...(flags.mapping ? { mapping: flags.mapping } : {}),
        ...(flags.overwrite ? { overwrite: true } : {}),
      })
      const warnings = [
        ['leaves without a description', report.leaves_without_description.length],
        ['leaf names used more than once', report.duplicate_names.length],
        ['codes that do not parse', report.unparsed_codes.length],
        ['levels that do not parse', report.unparsed_levels.length],
      ] as const
      for (const [what, count] of warnings)
        if (count > 0) process.stderr.write(`warning[standards] ${flags.dataset}: ${count} ${what}\n`)
      for (const { table, header, looks_like } of report.unused_columns)
        process.stderr.write(`note[unused_column] ${table} column "${header}" looks like ${looks_like} but is not used\n`)
      printSummary({
        dataset: report.dataset,
        status: report.status,
        leaves: report.leaves,
        merged_ranges: report.merged_ranges,
        grading_levels: report.grading_levels,
        duplicate_names: report.duplicate_names.length,
      })
    })
}
