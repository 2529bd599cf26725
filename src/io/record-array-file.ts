/**
 * @module io: record files are JSON arrays with one record per line (`[\n{…},\n{…}\n]\n`): valid
 * JSON for any reader, and streamable line by line for ours. Any other JSON array layout is read too.
 */
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { BufferedFileWriter } from './buffered-file-writer.js'
import { readFileBytes } from './read-json-file.js'
import { sha256Hex } from './sha256.js'

/** Where a record array's text goes: a file written here or by a worker thread. */
export interface TextSink {
  write(text: string): void
}

/** Appends records to a record file's text one at a time (for stages that stream their output). */
export class RecordArrayWriter {
  private count = 0

  constructor(private readonly sink: TextSink) {
    sink.write('[')
  }

  add(record: unknown): void {
    this.sink.write(this.count === 0 ? '\n' : ',\n')
    this.sink.write(JSON.stringify(record))
    this.count++
  }

  /** Writes the closing bracket (the caller then closes the sink); returns how many records were added. */
  end(): number {
    this.sink.write(this.count === 0 ? ']\n' : '\n]\n')
    return this.count
  }
}

/** Writes `records` to a new file (it must not exist). Returns how many were written and the file's SHA-256. */
export function writeRecordArray(path: string, records: Iterable<unknown>): { count: number; sha256: string } {
  const file = new BufferedFileWriter(path)
  let count: number
  try {
    const writer = new RecordArrayWriter(file)
    for (const record of records) writer.add(record)
    count = writer.end()
  } finally {
    file.close()
  }
  return { count, sha256: file.sha256() }
}

export interface RecordArray {
  records: unknown[]
  sha256: string
}

function notArray(path: string, message: string): InvalidInputError {
  return new InvalidInputError({
    code: 'invalid_record_file',
    path,
    message: `${path}: ${message}`,
    issues: [{ code: 'invalid_record_file', path, message }],
  })
}

export function readRecordArray(path: string, kind: string): RecordArray {
  const bytes = readFileBytes(path, kind)
  const sha256 = sha256Hex(bytes)
  const text = bytes.toString('utf8')
  const lines = text.split('\n')
  // Our layout: "[", one record per line with a trailing comma, "]".
  if (lines[0] === '[' && lines.at(-2) === ']' && lines.at(-1) === '') {
    const records: unknown[] = []
    try {
      for (let index = 1; index < lines.length - 2; index++) {
        const line = lines[index] as string
        records.push(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line))
      }
      return { records, sha256 }
    } catch {
      // not our layout after all (a pretty-printed array); parse it whole below
    }
  }
  if (text.trim() === '[]') return { records: [], sha256 }
  let value: unknown
  try {
    value = JSON.parse(text.replace(/^\ufeff/, ''))
  } catch (error) {
    throw notArray(path, `not valid JSON (${(error as Error).message})`)
  }
  if (!Array.isArray(value)) throw notArray(path, `${kind} must be a JSON array of records`)
  return { records: value, sha256 }
}
