/**
 * @module release/workers: a stage's record file, written by a worker thread: the records are serialised
 * here (the same bytes `writeRecordArray` writes), the worker encodes, hashes and writes the text. The
 * line writes the canonical file so; writing it from the processed file's bytes instead was measured at
 * ~4% of the line and dropped (decision 0040).
 */
import { RecordArrayWriter } from '../../io/record-array-file.js'
import { BackgroundFileWriter } from './background-file-writer.js'

/** Writes `records` as a record file at `path` (it must not exist); resolves with its SHA-256. */
export async function writeRecordArrayInWorker(path: string, records: Iterable<unknown>): Promise<string> {
  const file = new BackgroundFileWriter(path)
  try {
    const writer = new RecordArrayWriter(file)
    for (const record of records) writer.add(record)
    writer.end()
  } catch (error) {
    await file.abandon()
    throw error
  }
  return file.close()
}
