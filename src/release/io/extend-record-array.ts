/**
 * @module release/io: a record file (`[\n{…},\n{…}\n]\n`, as `RecordArrayWriter` writes it) whose records
 * each gain more keys after their own, from the file's text and one suffix per record: no record is parsed
 * or serialised again. A record's JSON never holds a raw newline, so its lines are its records.
 */

/**
 * Emits the extended file's text in pieces: record `i` is the original record without its closing brace,
 * then `suffixes[i]` (`,"key":value…`, no brace), then `}`. Returns the record count; a file that is not in
 * the writer's layout, or a suffix count that differs from its record count, throws.
 */
export function extendRecordArrayText(text: string, suffixes: readonly string[], emit: (text: string) => void): number {
  if (text === '[]\n') {
    if (suffixes.length !== 0) throw new Error(`an empty record file cannot take ${suffixes.length} suffixes`)
    emit(text)
    return 0
  }
  const lines = text.split('\n')
  const count = lines.length - 3
  if (lines[0] !== '[' || lines.at(-2) !== ']' || lines.at(-1) !== '' || count !== suffixes.length)
    throw new Error(`expected a record file of ${suffixes.length} records, one a line`)
  const parts: string[] = ['[\n']
  let characters = 0
  for (let index = 0; index < count; index++) {
    const line = lines[index + 1] as string
    const end = index < count - 1 ? line.length - 2 : line.length - 1
    if (line.charCodeAt(end) !== 0x7d || (index < count - 1 && line.charCodeAt(end + 1) !== 0x2c))
      throw new Error(`record ${index + 1} does not end a line as "}" or "},"`)
    const suffix = suffixes[index] as string
    // `{}` gains its first key: no comma before it.
    const body = end === 1 && suffix.startsWith(',') ? `{${suffix.slice(1)}` : `${line.slice(0, end)}${suffix}`
    const piece = `${body}${index < count - 1 ? '},\n' : '}\n'}`
    parts.push(piece)
    characters += piece.length
    if (characters >= 1 << 20) {
      emit(parts.join(''))
      parts.length = 0
      characters = 0
    }
  }
  parts.push(']\n')
  emit(parts.join(''))
  return count
}

/**
 * The suffixes `extendRecordArrayText` takes: the JSON text of a record's keys from `firstKey` on
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
