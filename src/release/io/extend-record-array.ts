/**
 * @module release/io: a record file (`[\n{…},\n{…}\n]\n`, as `RecordArrayWriter` writes it) whose records
 * each gain more keys after their own, from the file's bytes and one suffix per record: no record is parsed,
 * serialised or even decoded again. A record's JSON never holds a raw newline, so its lines are its records.
 */

/** Where the extended file goes: its own bytes are copied, suffixes encoded. */
export interface ByteSink {
  write(text: string): void
  writeBytes(bytes: Uint8Array): void
}

const newline = 0x0a
const closeBrace = 0x7d
const comma = 0x2c

/**
 * Writes the extended file to `sink`: record `i` is the original record without its closing brace, then
 * `suffixes[i]` (`,"key":value…`, no brace), then `}`. Returns the record count; bytes that are not in the
 * writer's layout, or a suffix count that differs from the record count, throw.
 */
export function extendRecordArray(bytes: Uint8Array, suffixes: readonly string[], sink: ByteSink): number {
  const text = (start: number, end: number) => Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1')
  if (bytes.length === 3 && text(0, 3) === '[]\n') {
    if (suffixes.length !== 0) throw new Error(`an empty record file cannot take ${suffixes.length} suffixes`)
    sink.write('[]\n')
    return 0
  }
  if (text(0, 2) !== '[\n' || text(bytes.length - 3, bytes.length) !== '\n]\n')
    throw new Error('not a record file of one record a line')
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  sink.write('[\n')
  let position = 2
  let count = 0
  const last = bytes.length - 3
  while (position < last) {
    const end = body.indexOf(newline, position)
    const final = end === last
    // A line ends "}," (the last one "}"): everything before that brace is kept.
    const brace = final ? end - 1 : end - 2
    if (end < 0 || brace < position || body[brace] !== closeBrace || (!final && body[brace + 1] !== comma))
      throw new Error(`record ${count + 1} does not end a line as "}" or "},"`)
    if (count >= suffixes.length) throw new Error(`expected a record file of ${suffixes.length} records, one a line`)
    const suffix = suffixes[count] as string
    // `{}` gains its first key: no comma before it.
    if (brace === position + 1 && suffix.startsWith(',')) {
      sink.write(`{${suffix.slice(1)}`)
    } else {
      sink.writeBytes(body.subarray(position, brace))
      sink.write(suffix)
    }
    sink.write(final ? '}\n' : '},\n')
    count++
    position = end + 1
  }
  if (count !== suffixes.length)
    throw new Error(`expected a record file of ${suffixes.length} records, one a line; found ${count}`)
  sink.write(']\n')
  return count
}

/**
 * The suffixes `extendRecordArray` takes: the JSON text of a record's keys from `firstKey` on
 * (`,"key":value…`), byte for byte what `JSON.stringify(record)` writes for them. Keys keep insertion
 * order only when none is an array index ("0", "12"), which record keys never are. Object values are
 * serialised once per object (records share their targets, which are never mutated).
 */
export class ExtensionText {
  private readonly keys = new Map<string, string>()
  private readonly objects = new Map<object, string>()

  constructor(private readonly firstKey: string) {}

  of(record: object): string {
    let text = ''
    let on = false
    for (const [key, value] of Object.entries(record)) {
      if (!on) {
        if (key !== this.firstKey) continue
        on = true
      }
      if (value === undefined) continue
      let keyText = this.keys.get(key)
      if (keyText === undefined) {
        keyText = JSON.stringify(key)
        this.keys.set(key, keyText)
      }
      text += `,${keyText}:${this.value(value)}`
    }
    if (!on) throw new Error(`a record without "${this.firstKey}" cannot be written as an extension`)
    return text
  }

  private value(value: unknown): string {
    if (value === null || typeof value !== 'object') return JSON.stringify(value)
    let text = this.objects.get(value)
    if (text === undefined) {
      text = JSON.stringify(value)
      this.objects.set(value, text)
    }
    return text
  }
}
