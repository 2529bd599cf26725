/**
 * Bench fixture: a one-sheet workbook whose cell B2 holds one string of N characters (CJK and ASCII
 * mixed), as a shared string or inline, to show the reader's time is linear in the input (the old
 * string-scanning reader re-scanned a growing buffer: quadratic). Streams the parts: a 100M-character
 * cell needs no 100M-character string here.
 *
 *   node --import tsx bench/xlsx-reader/write-huge-cell.ts --chars 10000000 --out huge.xlsx [--inline]
 */

import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { crc32, createDeflateRaw } from 'node:zlib'

const args = process.argv.slice(2)
const value = (name: string) => args[args.indexOf(name) + 1]
const chars = Number(value('--chars') ?? 1_000_000)
const out = value('--out')
const inline = args.includes('--inline')
if (!out || !Number.isInteger(chars) || chars < 1) {
  process.stderr.write('usage: write-huge-cell.ts --chars N --out FILE.xlsx [--inline]\n')
  process.exit(2)
}

const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const unit = '数据资产目录 catalogue text 字段描述 '
function* body(): Generator<string> {
  const block = unit.repeat(Math.ceil(65_536 / unit.length))
  let left = chars
  while (left > 0) {
    const piece = block.slice(0, Math.min(left, block.length))
    left -= piece.length
    yield piece
  }
}
const cell = inline ? 'inlineStr' : 's'
const sheetHead = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Field</t></is></c><c r="B1" t="inlineStr"><is><t>Description</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>f</t></is></c>`
const parts: [string, () => Generator<string>][] = [
  [
    '[Content_Types].xml',
    function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`
    },
  ],
  [
    '_rels/.rels',
    function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`
    },
  ],
  [
    'xl/workbook.xml',
    function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`
    },
  ],
  [
    'xl/_rels/workbook.xml.rels',
    function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`
    },
  ],
  [
    'xl/sharedStrings.xml',
    function* () {
      yield `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${main}"><si><t>`
      if (!inline) yield* body()
      yield '</t></si></sst>'
    },
  ],
  [
    'xl/worksheets/sheet1.xml',
    function* () {
      yield sheetHead
      if (inline) {
        yield `<c r="B2" t="${cell}"><is><t>`
        yield* body()
        yield '</t></is></c>'
      } else yield `<c r="B2" t="${cell}"><v>0</v></c>`
      yield '</row></sheetData></worksheet>'
    },
  ],
]

// A zip with data descriptors would need more code; instead each part is deflated twice: once to learn
// its sizes and CRC, once to write it (the parts are generated, so both passes see the same bytes).
async function measure(make: () => Generator<string>): Promise<{ crc: number; size: number; compressed: number }> {
  let crc = 0
  let size = 0
  let compressed = 0
  const deflate = createDeflateRaw()
  deflate.on('data', (chunk: Buffer) => {
    compressed += chunk.length
  })
  for (const text of make()) {
    const bytes = Buffer.from(text, 'utf8')
    crc = crc32(bytes, crc)
    size += bytes.length
    if (!deflate.write(bytes)) await once(deflate, 'drain')
  }
  deflate.end()
  await once(deflate, 'end')
  return { crc, size, compressed }
}

const file = createWriteStream(out)
let offset = 0
const write = async (bytes: Buffer) => {
  offset += bytes.length
  if (!file.write(bytes)) await once(file, 'drain')
}
const central: Buffer[] = []
for (const [name, make] of parts) {
  const { crc, size, compressed } = await measure(make)
  const nameBytes = Buffer.from(name)
  const header = Buffer.alloc(30)
  header.writeUInt32LE(0x04034b50, 0)
  header.writeUInt16LE(20, 4)
  header.writeUInt16LE(8, 8)
  header.writeUInt16LE(33, 12)
  header.writeUInt32LE(crc >>> 0, 14)
  header.writeUInt32LE(compressed, 18)
  header.writeUInt32LE(size, 22)
  header.writeUInt16LE(nameBytes.length, 26)
  const local = offset
  await write(Buffer.concat([header, nameBytes]))
  const deflate = createDeflateRaw()
  const done = (async () => {
    for await (const chunk of deflate) await write(chunk as Buffer)
  })()
  for (const text of make()) if (!deflate.write(Buffer.from(text, 'utf8'))) await once(deflate, 'drain')
  deflate.end()
  await done
  const entry = Buffer.alloc(46)
  entry.writeUInt32LE(0x02014b50, 0)
  entry.writeUInt16LE(20, 4)
  entry.writeUInt16LE(20, 6)
  entry.writeUInt16LE(8, 10)
  entry.writeUInt16LE(33, 14)
  entry.writeUInt32LE(crc >>> 0, 16)
  entry.writeUInt32LE(compressed, 20)
  entry.writeUInt32LE(size, 24)
  entry.writeUInt16LE(nameBytes.length, 28)
  entry.writeUInt32LE(local, 42)
  central.push(Buffer.concat([entry, nameBytes]))
}
const directory = Buffer.concat(central)
const start = offset
await write(directory)
const end = Buffer.alloc(22)
end.writeUInt32LE(0x06054b50, 0)
end.writeUInt16LE(parts.length, 8)
end.writeUInt16LE(parts.length, 10)
end.writeUInt32LE(directory.length, 12)
end.writeUInt32LE(start, 16)
await write(end)
file.end()
await once(file, 'close')
process.stdout.write(`${JSON.stringify({ out, chars, inline })}\n`)
