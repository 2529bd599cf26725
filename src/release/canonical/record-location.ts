/**
 * @module release/canonical: where a record is, for error paths: its file and 1-based position, plus the
 * spreadsheet row it came from when it carries provenance (`all.json:record 17 (data.xlsx:Sheet1:row 18)`).
 */
export function recordLocation(source: string, index: number, record: unknown): string {
  const provenance = (record as { provenance?: { source_file?: unknown; sheet?: unknown; row?: unknown } } | null)?.provenance
  const origin =
    provenance && typeof provenance.row === 'number'
      ? ` (${String(provenance.source_file)}:${String(provenance.sheet)}:row ${provenance.row})`
      : ''
  return `${source}:record ${index + 1}${origin}`
}
