/**
 * @module release/preprocess: `releaseops release preprocess`: stream an .xlsx through the row
 * preprocessor and write the processed records atomically. Any bad header, cell or duplicate fails the
 * stage with every problem listed and nothing written.
 */
import { existsSync } from 'node:fs'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { writeFileAtomicAsync } from '../../io/atomic-file.js'
import { BufferedFileWriter } from '../../io/buffered-file-writer.js'
import { withFailedAudit } from '../../io/failed-audit.js'
import { outputExistsError } from '../../io/publish-directory.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { RecordArrayWriter } from '../../io/record-array-file.js'
import { loadDatasetsFile } from '../canonical/load-datasets-file.js'
import { type ColumnMapping, parseColumnMapping } from '../contracts/column-mapping.js'
import { checkDatasetName, checkFormalDataset } from '../contracts/dataset-name.js'
import type { ProcessedRecord } from '../contracts/processed-record.js'
import { loadGradingConfig } from '../inputs/load-task-files.js'
import { type LevelScheme, levelScheme } from '../levels/level-scheme.js'
import { readXlsxRowsInWorker } from '../workers/read-xlsx-in-worker.js'
import { detectInputFormat } from '../xlsx/detect-input-format.js'
import type { SheetRowSource } from '../xlsx/sheet-row.js'
import type { CsvEncoding } from './decode-csv-bytes.js'
import type { CsvDelimiter } from './detect-delimiter.js'
import type { PreprocessReport } from './preprocess-report.js'
import { type PreprocessRowsOptions, preprocessRows } from './preprocess-rows.js'
import { type CsvOptions, readCsvRows } from './read-csv-rows.js'

export interface RunPreprocessOptions {
  input: string
  mapping: string
  dataset: string
  output: string
  sheets?: readonly string[]
  /** A CSV's encoding (default: UTF-8 or UTF-16, detected). */
  encoding?: CsvEncoding
  /** A CSV's field separator (default: detected). */
  delimiter?: CsvDelimiter
  overwrite?: boolean
  stripTrailingCodes?: boolean
  skipEmptyFieldName?: boolean
  failedAudit?: string
  /** Fail unless `dataset` is in the formal_datasets of `configFile`. */
  formal?: boolean
  configFile?: string
  /** The grading standard JSON: its levels and level map read the catalogue's level column. */
  gradingConfig?: string
  onProgress?: (rows: number) => void
}

/**
 * Reads the workbook (parsing in a worker thread) into processed records; throws with every problem found.
 * `source`: a reader over `options.input` started earlier (see `readXlsxRowsInWorker`'s `eager`).
 */
export function preprocessWorkbook(
  options: PreprocessRowsOptions & CsvOptions,
  source: SheetRowSource = openRowSource(options),
): Promise<{ records: ProcessedRecord[]; report: PreprocessReport }> {
  return preprocessRows(source, options)
}

/** A CSV/TSV input (known by its bytes and name: `detectInputFormat`) is parsed here; a workbook in a worker thread. */
function openRowSource(options: PreprocessRowsOptions & CsvOptions): SheetRowSource {
  if (detectInputFormat(options.input) === 'csv') {
    if (options.sheets && options.sheets.length > 0) {
      throw new InvalidInputError({
        code: 'invalid_option',
        path: '--sheet',
        message: '--sheet names a worksheet; a CSV file has none.',
        issues: [{ code: 'invalid_option', path: '--sheet', message: 'not for CSV input' }],
      })
    }
    return readCsvRows(options.input, { encoding: options.encoding, delimiter: options.delimiter })
  }
  for (const [flag, given] of [
    ['--encoding', options.encoding],
    ['--delimiter', options.delimiter],
  ] as const)
    if (given !== undefined)
      throw new InvalidInputError({
        code: 'invalid_option',
        path: flag,
        message: `${flag} is for CSV input; a workbook says its own.`,
        issues: [{ code: 'invalid_option', path: flag, message: 'not for .xlsx input' }],
      })
  return readXlsxRowsInWorker({ path: options.input, ...(options.sheets ? { sheets: options.sheets } : {}) })
}

/** The level scheme of a grading standard JSON (its levels and level map). */
function gradingScheme(path: string): LevelScheme {
  const { grading } = loadGradingConfig(path)
  return levelScheme({ levels: grading.levels, ...(grading.level_map ? { levelMap: grading.level_map } : {}) })
}

export function loadColumnMapping(path: string): ColumnMapping {
  return parseColumnMapping(readJsonFile(path, { kind: 'column mapping' }).value, path)
}

export async function runPreprocess(options: RunPreprocessOptions): Promise<PreprocessReport> {
  return withFailedAudit(
    { stage: 'preprocess', output: options.output, ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}) },
    async () => {
      checkDatasetName(options.dataset)
      if (options.formal) {
        if (!options.configFile) {
          throw new InvalidInputError({
            code: 'invalid_option',
            path: '--config-file',
            message: '--formal needs --config-file (its formal_datasets allowlist).',
            issues: [],
          })
        }
        checkFormalDataset({
          names: [options.dataset],
          formal: loadDatasetsFile(options.configFile).formalDatasets,
          source: options.configFile,
        })
      }
      if (existsSync(options.output) && !options.overwrite) throw outputExistsError(options.output)
      const mapping = loadColumnMapping(options.mapping)
      const levels = options.gradingConfig ? gradingScheme(options.gradingConfig) : undefined
      let report: PreprocessReport | undefined
      // Records stream to a temporary file as they are made; it is renamed into place only on success.
      await writeFileAtomicAsync({
        path: options.output,
        overwrite: options.overwrite ?? false,
        async write(temporary) {
          const file = new BufferedFileWriter(temporary)
          try {
            const writer = new RecordArrayWriter(file)
            const onRecord = (record: ProcessedRecord) => writer.add(record)
            report = (await preprocessWorkbook({ ...options, mapping, onRecord, ...(levels ? { levels } : {}) })).report
            writer.end()
          } finally {
            file.close()
          }
        },
      })
      return report as PreprocessReport
    },
  )
}
