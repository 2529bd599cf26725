/** @module cli: `releaseops release standards build`: standard workbooks → registry, corpus and standards JSON. */
import { type Command, Option } from 'commander'
import { runStandardsBuild } from '../../release/standards/run-standards-build.js'
import { printSummary } from './release-options.js'

interface StandardsFlags {
  dataset: string
  classification: string
  grading: string
  outDir: string
  idStrategy: 'path' | 'code'
  sheet?: string
  overwrite?: boolean
}

export function registerReleaseStandardsCommand(release: Command): void {
  const standards = release.command('standards').description('The classification and grading standards as JSON assets.')
  standards
    .command('build')
    .description(
      'Standard workbooks (a leaf a row, merged ancestor cells) → registry, corpus, classification and grading standard JSON, with an alignment report.',
    )
    .requiredOption('--dataset <name>', 'dataset name (ids and file names)')
    .requiredOption('--classification <file.xlsx>', 'classification standard: 一级分类…, 编码, 说明, 示例, 建议级别 columns')
    .requiredOption('--grading <file.xlsx>', 'grading standard: 级别 and 说明 columns')
    .requiredOption('--out-dir <dir>', 'writes assets/{registries,corpora}/ and standards/ under it')
    .addOption(
      new Option('--id-strategy <kind>', 'category ids: level path or the standard code')
        .choices(['path', 'code'])
        .default('path'),
    )
    .option('--sheet <name>', 'classification worksheet (default: the first)')
    .option('--overwrite', 'replace existing files')
    .action(async (flags: StandardsFlags) => {
      const report = await runStandardsBuild({
        dataset: flags.dataset,
        classification: flags.classification,
        grading: flags.grading,
        outDir: flags.outDir,
        idStrategy: flags.idStrategy,
        ...(flags.sheet ? { sheet: flags.sheet } : {}),
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
