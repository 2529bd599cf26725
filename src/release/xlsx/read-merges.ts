/**
 * @module release/xlsx: a worksheet's merged ranges, read before its rows (they follow `<sheetData>` in
 * the part, but a row needs them when it streams past): a pass over the part's bytes that decodes only
 * the `<mergeCells>` element, found by its start tag with any prefix. A `<` cannot occur in XML text
 * unescaped, so cell text cannot fake the tag; the row pass counts `<mergeCell>` elements as a check.
 */
import { mergeRange } from './sheet-xml-rows.js'
import { attribute, parseXmlPart } from './xml-part-parser.js'
import { entryChunks, type ZipDirectoryEntry } from './zip-entries.js'

export type MergeRange = NonNullable<ReturnType<typeof mergeRange>>

const name = Buffer.from('mergeCells')

/** Where the `<mergeCells` (or `<x:mergeCells`) start tag begins in `bytes`, or -1. */
function startTag(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(name, from); at >= 0; at = bytes.indexOf(name, at + 1)) {
    const after = bytes[at + name.length]
    if (
      after !== undefined &&
      after !== 0x20 &&
      after !== 0x3e &&
      after !== 0x2f &&
      after !== 0x0a &&
      after !== 0x0d &&
      after !== 0x09
    )
      continue
    let back = at - 1
    if (bytes[back] === 0x3a) {
      back--
      while (back >= 0 && /[\w.-]/.test(String.fromCharCode(bytes[back] as number))) back--
    }
    if (bytes[back] === 0x3c) return back
  }
  return -1
}

/** The merged ranges of a worksheet part and how many `<mergeCell>` elements it has. */
export async function readMerges(
  path: string,
  fd: number,
  entry: ZipDirectoryEntry,
  context: { file: string; part: string; limit: number },
): Promise<{ ranges: MergeRange[]; elements: number }> {
  let tail: Buffer[] | undefined
  let carry: Buffer = Buffer.alloc(0)
  for await (const chunk of entryChunks(path, fd, entry, context.limit)) {
    if (tail) {
      tail.push(chunk)
      continue
    }
    const joined = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk
    const at = startTag(joined, 0)
    if (at >= 0) tail = [joined.subarray(at)]
    else carry = joined.subarray(Math.max(0, joined.length - 256))
  }
  const ranges: MergeRange[] = []
  let elements = 0
  if (!tail) return { ranges, elements }
  const text = Buffer.concat(tail).toString('utf8')
  const end = /<\/(?:[\w.-]+:)?mergeCells\s*>/.exec(text)
  const selfClosing = /^<[^>]*\/>/.exec(text)
  const element = selfClosing ? selfClosing[0] : end ? text.slice(0, end.index + end[0].length) : undefined
  if (element === undefined) return { ranges, elements: -1 }
  parseXmlPart(context.file, context.part, element, {
    open(tag, attributes) {
      if (tag !== 'mergeCell') return
      elements++
      const range = mergeRange(attribute(attributes, 'ref') ?? '')
      if (range) ranges.push(range)
    },
    close() {},
  })
  return { ranges, elements }
}

/** Fills each merged range's cells with its top-left value as rows stream past (rows ascend). */
export class MergeFiller {
  private readonly pending: MergeRange[]
  private active: { range: MergeRange; value: string; kind: string }[] = []
  private next = 0

  constructor(ranges: MergeRange[]) {
    this.pending = [...ranges].sort((a, b) => a.top - b.top || a.left - b.left)
  }

  fill(row: { rowNumber: number; cells: string[]; kinds: string }): void {
    const { rowNumber, cells } = row
    while (this.next < this.pending.length && (this.pending[this.next] as MergeRange).top <= rowNumber) {
      const range = this.pending[this.next++] as MergeRange
      // A range whose top row is absent from the file holds no value.
      const top = range.top === rowNumber
      this.active.push({ range, value: top ? (cells[range.left] ?? '') : '', kind: top ? (row.kinds[range.left] ?? ' ') : ' ' })
    }
    if (this.active.length === 0) return
    this.active = this.active.filter(({ range }) => range.bottom >= rowNumber)
    let kinds: string[] | undefined
    for (const { range, value, kind } of this.active) {
      if (value === '' && kind !== 'e' && kind !== 'f') continue
      for (let column = range.left; column <= range.right; column++) {
        while (cells.length < column) cells.push('')
        const own = row.kinds[column]
        if ((cells[column] ?? '') === '' && own !== 'e' && own !== 'f') {
          cells[column] = value
          kinds ??= [...row.kinds]
          while (kinds.length < column) kinds.push(' ')
          kinds[column] = kind
        }
      }
    }
    if (kinds) row.kinds = Array.from(kinds, (letter) => letter ?? ' ').join('')
  }
}
