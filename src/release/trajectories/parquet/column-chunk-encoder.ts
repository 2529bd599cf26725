/**
 * @module release/trajectories/parquet: one leaf's slots of one row group → the bytes of its column
 * chunk: an optional dictionary page (strings whose distinct values take at most half the bytes of all
 * values) and DATA_PAGE_V2 pages cut at row boundaries, each holding its RLE/bit-packed repetition and
 * definition levels (uncompressed, as V2 says) and its values (RLE_DICTIONARY indices or PLAIN),
 * compressed with BROTLI quality 1 through node:zlib (see decision 0023 for why BROTLI).
 */
import { brotliCompressSync, constants } from 'node:zlib'
import type { ColumnMetaData } from 'hyparquet'
import { ByteWriter } from 'hyparquet-writer'
import { writePageHeader } from 'hyparquet-writer/src/datapage.js'
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js'
import type { LeafColumn } from './compiled-columns.js'
import type { LeafStream, ScalarValue } from './row-shredder.js'

export const trajectoryPageSize = 1 << 20

/** Bits for values up to `maxValue` (at least 1: some readers refuse width 0). */
const bitWidth = (maxValue: number) => Math.max(1, 32 - Math.clz32(maxValue))

function compress(bytes: Uint8Array): Uint8Array {
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  })
}

/** PLAIN encoding of `values` (strings: 4-byte length + UTF-8; INT64: 8 bytes LE; BOOLEAN: bit-packed). */
export function plainBytes(kind: LeafColumn['kind'], values: readonly ScalarValue[], start = 0, end = values.length): Uint8Array {
  if (kind === 'boolean') {
    const bytes = new Uint8Array(Math.ceil((end - start) / 8))
    for (let index = start; index < end; index++)
      if (values[index]) bytes[(index - start) >> 3] = (bytes[(index - start) >> 3] as number) | (1 << ((index - start) & 7))
    return bytes
  }
  if (kind === 'int64') {
    const bytes = Buffer.alloc((end - start) * 8)
    for (let index = start; index < end; index++) bytes.writeBigInt64LE(BigInt(values[index] as number), (index - start) * 8)
    return bytes
  }
  let size = 0
  for (let index = start; index < end; index++) size += 4 + Buffer.byteLength(values[index] as string, 'utf8')
  const bytes = Buffer.allocUnsafe(size)
  let position = 0
  for (let index = start; index < end; index++) {
    const written = bytes.write(values[index] as string, position + 4, 'utf8')
    bytes.writeUInt32LE(written, position)
    position += 4 + written
  }
  return bytes
}

interface Dictionary {
  entries: string[]
  indices: Uint32Array
}

/** Dictionary-encodes strings when their distinct values take at most half of all value bytes. */
function chooseDictionary(values: readonly ScalarValue[]): Dictionary | undefined {
  if (values.length === 0) return undefined
  const positions = new Map<string, number>()
  const entries: string[] = []
  const indices = new Uint32Array(values.length)
  let totalBytes = 0
  let distinctBytes = 0
  for (let index = 0; index < values.length; index++) {
    const value = values[index] as string
    const bytes = 4 + value.length
    totalBytes += bytes
    let position = positions.get(value)
    if (position === undefined) {
      position = entries.length
      positions.set(value, position)
      entries.push(value)
      distinctBytes += bytes
    }
    indices[index] = position
  }
  return distinctBytes * 2 <= totalBytes ? { entries, indices } : undefined
}

export interface EncodedChunk {
  /** The chunk's bytes (dictionary page first when there is one) and its metadata, offsets relative to the chunk. */
  parts: Uint8Array[]
  bytes: number
  uncompressedBytes: number
  dictionaryPageBytes: number
  encodings: ColumnMetaData['encodings']
}

/** Page cuts (slot index of each page's first slot), at row starts, so each page's values stay near `pageSize` bytes. */
function pageCuts(stream: LeafStream, valueBytes: number, pageSize: number): number[] {
  const pages = Math.max(1, Math.ceil(valueBytes / pageSize))
  if (pages === 1) return [0, stream.slots]
  const rowStarts: number[] = []
  for (let slot = 0; slot < stream.slots; slot++) if (stream.repetitions[slot] === 0) rowStarts.push(slot)
  const cuts = [0]
  for (let page = 1; page < pages; page++) {
    const cut = rowStarts[Math.floor((rowStarts.length * page) / pages)] as number
    if (cut > (cuts.at(-1) as number)) cuts.push(cut)
  }
  cuts.push(stream.slots)
  return cuts
}

export function encodeColumnChunk(leaf: LeafColumn, stream: LeafStream, pageSize = trajectoryPageSize): EncodedChunk {
  const parts: Uint8Array[] = []
  let bytes = 0
  let uncompressedBytes = 0
  const put = (part: Uint8Array) => {
    parts.push(part)
    bytes += part.length
  }
  const dictionary = leaf.kind === 'string' ? chooseDictionary(stream.values) : undefined
  let dictionaryPageBytes = 0
  if (dictionary) {
    const plain = plainBytes('string', dictionary.entries)
    const compressed = compress(plain)
    const header = new ByteWriter(64)
    writePageHeader(header, {
      type: 'DICTIONARY_PAGE',
      uncompressed_page_size: plain.length,
      compressed_page_size: compressed.length,
      dictionary_page_header: { num_values: dictionary.entries.length, encoding: 'PLAIN' },
    })
    put(header.getBytes())
    put(compressed)
    dictionaryPageBytes = bytes
    uncompressedBytes += header.offset + plain.length
  }
  const indexWidth = dictionary ? bitWidth(dictionary.entries.length - 1) : 0
  let estimate = dictionary ? (stream.values.length * indexWidth) / 8 : stream.values.length * 8
  if (!dictionary && leaf.kind === 'string')
    for (const value of stream.values) estimate += Buffer.byteLength(value as string, 'utf8')
  const cuts = pageCuts(stream, estimate, pageSize)
  let valueIndex = 0
  for (let page = 0; page + 1 < cuts.length; page++) {
    const start = cuts[page] as number
    const end = cuts[page + 1] as number
    const levels = new ByteWriter(256)
    let repetitionBytes = 0
    let rows = end - start
    if (leaf.maxRepetition > 0) {
      const repetitions = stream.repetitions.subarray(start, end)
      rows = 0
      for (const level of repetitions) if (level === 0) rows++
      repetitionBytes = writeRleBitPackedHybrid(levels, repetitions, bitWidth(leaf.maxRepetition))
    }
    const definitions = stream.definitions.subarray(start, end)
    let present = 0
    for (const level of definitions) if (level === leaf.maxDefinition) present++
    const definitionBytes = writeRleBitPackedHybrid(levels, definitions, bitWidth(leaf.maxDefinition))
    let values: Uint8Array
    if (dictionary) {
      const writer = new ByteWriter(64)
      writer.appendUint8(indexWidth)
      if (present > 0) writeRleBitPackedHybrid(writer, dictionary.indices.subarray(valueIndex, valueIndex + present), indexWidth)
      values = writer.getBytes()
    } else values = plainBytes(leaf.kind, stream.values, valueIndex, valueIndex + present)
    valueIndex += present
    const compressed = compress(values)
    const levelBytes = levels.getBytes()
    const header = new ByteWriter(64)
    writePageHeader(header, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: levelBytes.length + values.length,
      compressed_page_size: levelBytes.length + compressed.length,
      data_page_header_v2: {
        num_values: end - start,
        num_nulls: end - start - present,
        num_rows: rows,
        encoding: dictionary ? 'RLE_DICTIONARY' : 'PLAIN',
        definition_levels_byte_length: definitionBytes,
        repetition_levels_byte_length: repetitionBytes,
        is_compressed: true,
      },
    })
    put(header.getBytes())
    put(levelBytes)
    put(compressed)
    uncompressedBytes += header.offset + levelBytes.length + values.length
  }
  return {
    parts,
    bytes,
    uncompressedBytes,
    dictionaryPageBytes,
    encodings: dictionary ? ['PLAIN', 'RLE', 'RLE_DICTIONARY'] : ['PLAIN', 'RLE'],
  }
}
