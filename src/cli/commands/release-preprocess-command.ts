/** @module cli: `releaseops release preprocess`: spreadsheet + mapping → processed records. */
import type { CommandUnknownOpts } from '@commander-js/extra-typings'
import { InvalidArgumentError } from '@commander-js/extra-typings'
import { type CsvEncoding, encodingName, namedLegacyEncodings } from '../../release/preprocess/decode-csv-bytes.js'
import { type CsvDelimiter, parseDelimiter } from '../../release/preprocess/detect-delimiter.js'
import { runPreprocess } from '../../release/preprocess/run-preprocess.js'
import { addOutFileOption } from '../flag-vocabulary.js'
import { createProgress } from '../progress.js'
import { printSummary, trailingCodes } from './release-options.js'

/** `--encoding`: any WHATWG encoding label. */
export function parseCsvEncoding(value: string): CsvEncoding {
  const name = encodingName(value)
  if (name) return name
  throw new InvalidArgumentError(`unknown encoding "${value}" (e.g. utf-8, utf-16le, ${namedLegacyEncodings.join(', ')})`)
}

/** `--delimiter`: `,` `;` `|` or tab (`tab` or `\t`). */
export function parseCsvDelimiter(value: string): CsvDelimiter {
  const delimiter = parseDelimiter(value)
  if (delimiter) return delimiter
  throw new InvalidArgumentError(`unknown delimiter "${value}" (one of , ; | tab)`)
}

export const encodingHelp =
  "a CSV file's encoding when it is not UTF-8 or UTF-16 (e.g. gb18030, big5, shift_jis, windows-1252; default: UTF-8/UTF-16 detected, anything else refused with the encoding suspected)"
export const delimiterHelp = "a CSV file's field separator: , ; | or tab (default: detected)"

export function registerReleasePreprocessCommand(release: CommandUnknownOpts): void {
  addOutFileOption(
    release
      .command('preprocess')
      .description('Normalise an .xlsx of field metadata into processed records (JSON), with ids, labels and row provenance.')
      .requiredOption('--input <file>', 'the spreadsheet (.xlsx/.xlsm) or a .csv/.tsv/.txt file')
      .requiredOption('--mapping <file>', 'mapping JSON: header text → standard field')
      .requiredOption('--dataset <name>', 'dataset name (part of every record id)'),
    { description: 'processed records JSON to write (refused if it exists)', aliases: ['--output'], required: true },
  )
    .option(
      '--sheet <name>',
      'worksheet to read; repeat for several (default: every sheet whose header row holds the mapped headers)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--encoding <name>', encodingHelp, (value: string) => parseCsvEncoding(value))
    .option('--delimiter <char>', delimiterHelp, (value: string) => parseCsvDelimiter(value))
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
    .action(async (flags) => {
      const progress = createProgress('preprocess rows')
      try {
        const report = await runPreprocess({
          input: flags.input,
          mapping: flags.mapping,
          dataset: flags.dataset,
          output: flags.out,
          ...(flags.sheet ? { sheets: flags.sheet } : {}),
          ...(flags.encoding ? { encoding: flags.encoding } : {}),
          ...(flags.delimiter ? { delimiter: flags.delimiter } : {}),
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
