/**
 * @module release/io: a record file (`[\n{…},\n{…}\n]\n`, as `RecordArrayWriter` writes it) whose records
 * each gain more keys after their own, from the file's bytes and one suffix per record: no record is parsed,
 * serialised or even decoded again. A record's JSON never holds a raw newline, so its lines are its records.
 * (The one user, `writeRecordArrayInWorker`, states the contract; see decision 0040 for why it is kept.)
 */
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'

/** Where the extended file goes: its own bytes are copied, suffixes encoded. */
export interface ByteSink {
  write(text: string): void
  writeBytes(bytes: Uint8Array): void
}

const newline = 0x0a
const closeBrace = 0x7d
const comma = 0x2c

/** One suffix per record, as an index into a table of the distinct suffixes (most records share theirs). */
export interface Suffixes {
  /** `,"key":value…`: the JSON of the keys a record gains, without the closing brace. */
  texts: readonly string[]
  /** Per record, its suffix's index in `texts`. */
  ids: ArrayLike<number>
}

/**
 * Writes the extended file to `sink`: record `i` is the original record without its closing brace, then
 * its suffix, then `}`. Returns the record count; bytes that are not in the writer's layout, or a suffix
 * count that differs from the record count, throw. `checks` holds the JSON of some of the extended records
 * by index: a record written otherwise throws `extension_mismatch` (its records did not extend these).
 */
export function extendRecordArray(
  bytes: Uint8Array,
  suffixes: Suffixes,
  sink: ByteSink,
  checks: ReadonlyMap<number, string> = new Map(),
): number {
  const expected = suffixes.ids.length
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  const text = (start: number, end: number, encoding: BufferEncoding = 'latin1') => file.toString(encoding, start, end)
  if (file.length === 3 && text(0, 3) === '[]\n') {
    if (expected !== 0) throw new Error(`an empty record file cannot take ${expected} suffixes`)
    sink.write('[]\n')
    return 0
  }
  if (text(0, 2) !== '[\n' || text(file.length - 3, file.length) !== '\n]\n')
    throw new Error('not a record file of one record a line')
  // Each distinct suffix is encoded once, with the brace (and comma, newline) that ends its record.
  const encoded = (close: string) => suffixes.texts.map((suffix) => Buffer.from(`${suffix}${close}`, 'utf8'))
  const middle = encoded('},\n')
  const final = encoded('}\n')
  sink.write('[\n')
  let position = 2
  let count = 0
  const last = file.length - 3
  while (position < last) {
    const end = file.indexOf(newline, position)
    const isLast = end === last
    // A line ends "}," (the last one "}"): everything before that brace is kept.
    const brace = isLast ? end - 1 : end - 2
    if (end < 0 || brace < position || file[brace] !== closeBrace || (!isLast && file[brace + 1] !== comma))
      throw new Error(`record ${count + 1} does not end a line as "}" or "},"`)
    if (count >= expected) throw new Error(`expected a record file of ${expected} records, one a line`)
    const id = suffixes.ids[count] as number
    const suffix = suffixes.texts[id]
    if (suffix === undefined) throw new Error(`record ${count + 1} has no suffix ${id}`)
    const empty = brace === position + 1 && suffix.startsWith(',')
    const check = checks.get(count)
    if (check !== undefined && check !== (empty ? `{${suffix.slice(1)}}` : `${text(position, brace, 'utf8')}${suffix}}`))
      throw new ReleaseOpsError({
        code: 'extension_mismatch',
        message: `record ${count + 1} is not its base record with its new keys: the records do not extend the base file`,
      })
    if (empty) {
      // `{}` gains its first key: no comma before it.
      sink.write(`{${suffix.slice(1)}${isLast ? '}\n' : '},\n'}`)
    } else {
      sink.writeBytes(file.subarray(position, brace))
      sink.writeBytes((isLast ? final : middle)[id] as Buffer)
    }
    count++
    position = end + 1
  }
  if (count !== expected) throw new Error(`expected a record file of ${expected} records, one a line; found ${count}`)
  sink.write(']\n')
  return count
}

const endOfPath = Symbol('end of path')

/**
 * Builds the `Suffixes` of records that extend others: a record's suffix is the JSON of its keys from
 * `firstKey` on, byte for byte what `JSON.stringify(record)` writes for them. Records are told apart by
 * those keys and values (objects by identity: records share their targets, which are never mutated), so
 * each distinct suffix is serialised once. Keys keep insertion order only when none is an array index
 * ("0", "12"), which record keys never are.
 */
export class SuffixTable {
  readonly texts: string[] = []
  private readonly ids: number[] = []
  /** A trie over key, value, key, value… ending in the suffix's index. */
  private readonly root = new Map<unknown, unknown>()

  constructor(private readonly firstKey: string) {}

  /** Adds the next record's suffix. */
  add(record: object): void {
    let node = this.root
    let on = false
    for (const key in record) {
      if (!on) {
        if (key !== this.firstKey) continue
        on = true
      }
      const value = (record as Record<string, unknown>)[key]
      if (value === undefined) continue
      node = child(child(node, key), value)
    }
    if (!on) throw new Error(`a record without "${this.firstKey}" cannot be written as an extension`)
    let id = node.get(endOfPath) as number | undefined
    if (id === undefined) {
      id = this.texts.length
      this.texts.push(suffixText(record, this.firstKey))
      node.set(endOfPath, id)
    }
    this.ids.push(id)
  }

  suffixes(): { texts: string[]; ids: Int32Array } {
    return { texts: this.texts, ids: Int32Array.from(this.ids) }
  }
}

function child(node: Map<unknown, unknown>, key: unknown): Map<unknown, unknown> {
  let next = node.get(key) as Map<unknown, unknown> | undefined
  if (!next) {
    next = new Map()
    node.set(key, next)
  }
  return next
}

function suffixText(record: object, firstKey: string): string {
  let text = ''
  let on = false
  for (const [key, value] of Object.entries(record)) {
    if (!on) {
      if (key !== firstKey) continue
      on = true
    }
    if (value !== undefined) text += `,${JSON.stringify(key)}:${JSON.stringify(value)}`
  }
  return text
}
