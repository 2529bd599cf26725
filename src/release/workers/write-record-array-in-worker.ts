/**
 * @module release/workers: a stage's record file, written by a worker thread. The plain form serialises the
 * records here and hands the text over. The extending form is for records that each extend a record of a
 * file already written (the canonical records extend the processed ones with keys from `schema_version`
 * on): only the new keys are serialised, once per distinct value, and the worker copies the rest of each
 * line from that file's bytes. The line measured it at 9% of its time (decision 0040), so it is kept, here
 * only; both forms write the same bytes as `writeRecordArray` (property test beside this file).
 */
import { SuffixTable } from '../io/extend-record-array.js'
import { RecordArrayWriter } from '../io/record-array-file.js'
import { BackgroundFileWriter } from './background-file-writer.js'

/** The file the records extend: its bytes (moved to the worker: the caller's copy is emptied) and the first new key. */
export interface ExtendedFile {
  bytes: Uint8Array
  from: string
}

/** Records checked whole against what the extending form writes: every `checkEvery`-th, and the last. */
const checkEvery = 512

/**
 * Writes `records` as a record file at `path` (the bytes `writeRecordArray` writes) and resolves with its
 * SHA-256. With `extending`, record `i`'s keys before `extending.from` must serialise to record `i` of that
 * file; a checked record that does not fails the write with `extension_mismatch`.
 */
export async function writeRecordArrayInWorker(
  path: string,
  records: readonly object[],
  extending?: ExtendedFile,
): Promise<string> {
  const file = new BackgroundFileWriter(path)
  try {
    if (extending) {
      const table = new SuffixTable(extending.from)
      const checks = new Map<number, string>()
      records.forEach((record, index) => {
        table.add(record)
        if (index % checkEvery === 0 || index === records.length - 1) checks.set(index, JSON.stringify(record))
      })
      return await file.closeExtending(extending.bytes, table.suffixes(), checks)
    }
    const writer = new RecordArrayWriter(file)
    for (const record of records) writer.add(record)
    writer.end()
  } catch (error) {
    await file.abandon()
    throw error
  }
  return file.close()
}
