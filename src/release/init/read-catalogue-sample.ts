/**
 * @module release/init: reads a catalogue (`.xlsx` or `.csv`) as `release init` needs it: the header row
 * (of the first 30 rows of a sheet, the one naming the most fields, a field name among them), the proposed
 * mapping, and, on every sheet with that header, each row's category labels and level text.
 */
import { basename } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { StandardField } from '../contracts/column-mapping.js'
import { headerKey } from '../preprocess/find-header-row.js'
import { readCsvRows } from '../preprocess/read-csv-rows.js'
import { detectInputFormat } from '../xlsx/detect-input-format.js'
import { readXlsxRows } from '../xlsx/read-xlsx-rows.js'
import type { SheetRowSource } from '../xlsx/sheet-row.js'
import { catalogueHeaderScore, type ProposedMapping, proposeCatalogueMapping } from './catalogue-headers.js'

export interface CatalogueSample {
  sheet: string
  headerRow: number
  header: string[]
  proposal: ProposedMapping
  /** Per data row: the mapped category and level fields' text. */
  rows: Record<string, string>[]
  /** Every non-empty header cell seen in header rows, for the language report. */
  headerTexts: string[]
}

const sampled: readonly StandardField[] = ['level_1', 'level_2', 'level_3', 'level_4', 'data_level', 'field_name']

function openCatalogue(path: string): SheetRowSource {
  return detectInputFormat(path) === 'csv' ? readCsvRows(path) : readXlsxRows({ path })
}

export async function readCatalogueSample(path: string): Promise<CatalogueSample> {
  const source = openCatalogue(path)
  let sample: CatalogueSample | undefined
  let sheet = ''
  let scanned = 0
  let best: { row: number; cells: readonly string[]; score: number } | undefined
  let columns: Map<StandardField, number> | undefined
  for await (const { rowNumber, cells, sheet: rowSheet } of source.rows) {
    const name = rowSheet ?? source.sheetName()
    if (name !== sheet) [sheet, scanned, best, columns] = [name, 0, undefined, undefined]
    if (columns) {
      if (cells.every((cell) => cell.trim() === '')) continue
      const row: Record<string, string> = {}
      for (const [field, index] of columns) row[field] = (cells[index] ?? '').trim()
      if (row.field_name) sample?.rows.push(row)
      continue
    }
    if (scanned++ >= 30) continue
    const score = catalogueHeaderScore(cells)
    if (score > (best?.score ?? 0)) best = { row: rowNumber, cells, score }
    // The header is the best row once the rows after it name fewer fields (the data has begun).
    if (!best || best.row === rowNumber || score > 1 || scanned < 2) continue
    const proposal = proposeCatalogueMapping(best.cells)
    if (!sample) sample = { sheet, headerRow: best.row, header: best.cells.map(headerKey), proposal, rows: [], headerTexts: [] }
    const keys = best.cells.map(headerKey)
    const wanted = sample.proposal.mapping.map(([header]) => header)
    if (!wanted.every((header) => keys.includes(header))) {
      scanned = 31
      continue
    }
    sample.headerTexts.push(...keys.filter(Boolean))
    columns = new Map(
      sample.proposal.mapping
        .filter(([, field]) => sampled.includes(field))
        .map(([header, field]) => [field, keys.indexOf(header)]),
    )
    const row: Record<string, string> = {}
    for (const [field, index] of columns) row[field] = (cells[index] ?? '').trim()
    if (row.field_name) sample.rows.push(row)
  }
  if (!sample) {
    const file = basename(path)
    throw new InvalidInputError({
      code: 'missing_header',
      path: file,
      message: `${file}: no sheet has a catalogue header row in its first 30 rows: a header row names a field-name column (字段名 / Field Name) and the table, description, category (一级分类… / Category Level 1…) and level (分级 / Level) columns.`,
      issues: [{ code: 'missing_header', path: file, message: 'no catalogue header row' }],
    })
  }
  return sample
}
