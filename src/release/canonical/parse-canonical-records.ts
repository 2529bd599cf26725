/**
 * @module release/canonical: validates canonical records read from a file: the schema, unique ids, and the
 * contract that a resolved record has a target and anything else has none. Problems name the record's
 * file, position and spreadsheet row.
 */
import { carriedCode } from '../../core/errors/error-code.js'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { readRecordArray } from '../../io/record-array-file.js'
import { type CanonicalRecord, canonicalRecordSchema } from '../contracts/canonical-record.js'
import { recordLocation } from './record-location.js'

function parseCanonicalRecords(
  records: readonly unknown[],
  source: string,
): { records: CanonicalRecord[]; issues: InputIssue[] } {
  const issues: InputIssue[] = []
  const parsed: CanonicalRecord[] = []
  const ids = new Map<string, number>()
  records.forEach((raw, index) => {
    const result = canonicalRecordSchema.safeParse(raw)
    if (!result.success) {
      const where = recordLocation(source, index, raw)
      for (const issue of result.error.issues)
        issues.push({ code: issue.code, path: `${where}:${issue.path.join('.')}`, message: issue.message })
      return
    }
    const record = result.data
    const where = () => recordLocation(source, index, raw)
    if ((record.resolution_status === 'resolved') !== (record.target !== undefined)) {
      issues.push({
        code: 'target_contract',
        path: `${where()}:target`,
        message: record.target
          ? `a ${record.resolution_status} record must not carry a target`
          : 'a resolved record needs a target',
      })
    }
    const first = ids.get(record.id)
    if (first !== undefined)
      issues.push({ code: 'duplicate_record_id', path: `${where()}:id`, message: `id repeats record ${first + 1}` })
    ids.set(record.id, index)
    parsed.push(record)
  })
  return { records: parsed, issues }
}

export function invalidRecordsError(source: string, issues: readonly InputIssue[]): InvalidInputError {
  const first = issues[0]
  return new InvalidInputError({
    code: carriedCode(first?.code ?? 'invalid_record'),
    path: first?.path ?? source,
    message: `${source} has invalid canonical records (${issues.length}); first: ${first?.path}: ${first?.message}.`,
    issues: issues.slice(0, 500),
  })
}

/** Reads and validates a canonical `all.json`; throws on any invalid record. */
export function loadCanonicalRecords(path: string): { records: CanonicalRecord[]; sha256: string } {
  const file = readRecordArray(path, 'canonical records')
  const source = path.split(/[\\/]/).slice(-2).join('/')
  const { records, issues } = parseCanonicalRecords(file.records, source)
  if (issues.length > 0) throw invalidRecordsError(source, issues)
  return { records, sha256: file.sha256 }
}
