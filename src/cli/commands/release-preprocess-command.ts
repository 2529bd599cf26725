/** @module cli: `releaseops release preprocess`: spreadsheet + mapping → processed records. */
import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import { type CsvEncoding, csvEncodings } from '../../release/preprocess/decode-csv-bytes.js'
import { runPreprocess } from '../../release/preprocess/run-preprocess.js'
import { addOutFileOption } from '../flag-vocabulary.js'
import { createProgress } from '../progress.js'
import { printSummary, trailingCodes } from './release-options.js'

interface PreprocessFlags {
  input: string
  mapping: string
  dataset: string
  out: string
  sheet?: string[]
  encoding?: CsvEncoding
  stripTrailingCodes?: boolean
  keepTrailingCodes?: boolean
  skipEmptyFieldName?: boolean
  overwrite?: boolean
  failedAudit?: string
  formal?: boolean
  configFile?: string
  gradingConfig?: string
}

function parseCsvEncoding(value: string): CsvEncoding {
  const name = value
    .trim()
    .toLowerCase()
    .replace(/^utf8$/, 'utf-8')
  if ((csvEncodings as readonly string[]).includes(name)) return name as CsvEncoding
  throw new InvalidArgumentError(`unknown encoding "${value}" (one of ${csvEncodings.join(', ')})`)
}

export function registerReleasePreprocessCommand(release: Command): void {
  addOutFileOption(
    release
      .command('preprocess')
      .description('Normalise an .xlsx of field metadata into processed records (JSON), with ids, labels and row provenance.')
      .requiredOption('--input <file>', 'the spreadsheet (.xlsx) or a .csv file (UTF-8, UTF-16 or GB18030/GBK)')
      .requiredOption('--mapping <file>', 'mapping JSON: header text → standard field')
      .requiredOption('--dataset <name>', 'dataset name (part of every record id)'),
    { description: 'processed records JSON to write (refused if it exists)', aliases: ['--output'], required: true },
  )
    .option(
      '--sheet <name>',
      'worksheet to read; repeat for several (default: every sheet whose header row holds the mapped headers)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--encoding <name>', `a CSV file's encoding: ${csvEncodings.join(', ')} (default: detected)`, (value: string) =>
      parseCsvEncoding(value),
    )
    .option('--strip-trailing-codes', 'remove codes such as "（B4-1）" from labels, recorded in label_notes (the default)')
    .option('--keep-trailing-codes', 'keep trailing codes in labels (they then rarely resolve)')
    .option('--skip-empty-field-name', 'skip rows without a field name instead of failing')
    .option('--overwrite', 'replace an existing output file')
    .option('--failed-audit <file>', 'where to write the failed-audit JSON (default: <out>.failed.json)')
    .option('--formal', 'only allow datasets in formal_datasets of --config-file')
    .option('--config-file <file>', 'datasets config (for --formal)')
    .option(
      '--grading-config <file>',
      'grading standard JSON: its levels and level_map read the level column (default: L1–L4, numbered spellings)',
    )
    .action(async (flags: PreprocessFlags) => {
      const progress = createProgress('preprocess rows')
      try {
        const report = await runPreprocess({
          input: flags.input,
          mapping: flags.mapping,
          dataset: flags.dataset,
          output: flags.out,
          ...(flags.sheet ? { sheets: flags.sheet } : {}),
          ...(flags.encoding ? { encoding: flags.encoding } : {}),
          stripTrailingCodes: trailingCodes(flags),
          ...(flags.skipEmptyFieldName ? { skipEmptyFieldName: true } : {}),
          ...(flags.overwrite ? { overwrite: true } : {}),
          ...(flags.failedAudit ? { failedAudit: flags.failedAudit } : {}),
          ...(flags.formal ? { formal: true } : {}),
          ...(flags.configFile ? { configFile: flags.configFile } : {}),
          ...(flags.gradingConfig ? { gradingConfig: flags.gradingConfig } : {}),
          onProgress: (rows) => progress.update(rows, rows),
        })
        printSummary(report)
        const missing = report.labelled_without_level
        if (missing.count > 0)
          process.stderr.write(
            `note[labelled_without_level] ${missing.count} labelled row(s) have no data level, first ${missing.rows.slice(0, 5).join(', ')}\n`,
          )
        for (const sheet of report.skipped_sheets) process.stderr.write(`note[skipped_sheet] ${sheet.sheet}: ${sheet.reason}\n`)
      } finally {
        progress.stop()
      }
    })
}
