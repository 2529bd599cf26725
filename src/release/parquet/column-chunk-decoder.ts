/**
 * @module release/parquet: one column chunk → its slots (definition and repetition level per
 * slot) and present values. Reads what our writer writes and what pyarrow writes by default: dictionary
 * pages, DATA_PAGE and DATA_PAGE_V2, PLAIN / PLAIN_DICTIONARY / RLE_DICTIONARY values (RLE for
 * booleans), UNCOMPRESSED, SNAPPY, GZIP or BROTLI. Anything else is a clear error, not a wrong value.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { ColumnMetaData, PageHeader } from 'hyparquet'
import { snappyUncompress } from 'hyparquet'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { LeafColumn } from './compiled-columns.js'
import { parquetHeader, readRleBitPackedHybrid } from './hyparquet-internals.js'
import type { ScalarValue } from './row-shredder.js'

export interface DecodedLeaf {
  slots: number
  definitions: Uint8Array
  /** Null when the leaf is not repeated (every slot starts a row). */
  repetitions: Uint8Array | null
  /** Distinct decoded values: the dictionary's, then any PLAIN-encoded ones. */
  pool: ScalarValue[]
  /** Per present value (slots at the maximum definition level, in order), its place in `pool`. */
  indices: Uint32Array
}

/** A Parquet file that is not what its release says it is (schema, pages, values). */
export class ParquetDecodeError extends ReleaseOpsError {
  constructor(message: string, options: { path?: string } = {}) {
    super({ code: 'parquet_decode', message, ...options })
    this.name = 'ParquetDecodeError'
  }
}

const bitWidth = (maxValue: number) => (maxValue === 0 ? 0 : 32 - Math.clz32(maxValue))

function decompress(bytes: Uint8Array, codec: ColumnMetaData['codec'], size: number): Uint8Array {
  let page: Uint8Array
  switch (codec) {
    case 'UNCOMPRESSED':
      page = bytes
      break
    case 'BROTLI':
      page = brotliDecompressSync(bytes)
      break
    case 'GZIP':
      page = bytes[0] === 0x1f ? gunzipSync(bytes) : inflateSync(bytes)
      break
    case 'SNAPPY':
      page = new Uint8Array(size)
      snappyUncompress(bytes, page)
      break
    default:
      throw new ParquetDecodeError(`unsupported compression codec ${codec}`)
  }
  if (page.length !== size) throw new ParquetDecodeError(`a page decompressed to ${page.length} bytes, its header says ${size}`)
  return page
}

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

function readPlain(kind: LeafColumn['kind'], bytes: Uint8Array, offset: number, count: number, out: ScalarValue[]): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let position = offset
  if (kind === 'string') {
    for (let index = 0; index < count; index++) {
      if (position + 4 > buffer.length) throw new ParquetDecodeError('a PLAIN string runs past its page')
      const length = buffer.readUInt32LE(position)
      const end = position + 4 + length
      if (end > buffer.length) throw new ParquetDecodeError('a PLAIN string runs past its page')
      out.push(buffer.toString('utf8', position + 4, end))
      position = end
    }
  } else if (kind === 'int64') {
    if (position + count * 8 > buffer.length) throw new ParquetDecodeError('PLAIN INT64 values run past their page')
    for (let index = 0; index < count; index++) {
      const value = buffer.readBigInt64LE(position + index * 8)
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
        throw new ParquetDecodeError(`INT64 ${value} is outside the safe integer range`)
      out.push(Number(value))
    }
  } else {
    if (position + Math.ceil(count / 8) > buffer.length) throw new ParquetDecodeError('PLAIN booleans run past their page')
    for (let index = 0; index < count; index++) out.push((((buffer[position + (index >> 3)] as number) >> (index & 7)) & 1) === 1)
  }
}

/** Decodes `output.length` RLE/bit-packed levels into `output`. */
function readLevels(options: { bytes: Uint8Array; offset: number; length: number; maxLevel: number; output: Uint8Array }): void {
  if (options.maxLevel === 0) return
  const reader = { view: viewOf(options.bytes), offset: options.offset }
  readRleBitPackedHybrid(reader, bitWidth(options.maxLevel), options.output, options.length)
}

/** What decoding a chunk builds, page after page. */
interface ChunkState {
  leaf: LeafColumn
  meta: ColumnMetaData
  total: number
  definitions: Uint8Array
  repetitions: Uint8Array | null
  pool: ScalarValue[]
  indices: Uint32Array
  /** Values present (defined at the leaf's max level) so far. */
  present: number
  /** The dictionary's size once its page is read, else -1. */
  dictionarySize: number
  /** Level slots decoded so far. */
  slots: number
}

/** A data page with its levels decoded: its values' bytes start at `valuesAt`. */
interface DataPage {
  page: Uint8Array
  count: number
  encoding: string
  valuesAt: number
}

/** Decodes a column chunk (`bytes` holds exactly its pages). */
export function decodeColumnChunk(leaf: LeafColumn, meta: ColumnMetaData, bytes: Uint8Array): DecodedLeaf {
  const total = Number(meta.num_values)
  const state: ChunkState = {
    leaf,
    meta,
    total,
    definitions: new Uint8Array(total),
    repetitions: leaf.maxRepetition > 0 ? new Uint8Array(total) : null,
    pool: [],
    indices: new Uint32Array(Math.min(total, 1 << 16)),
    present: 0,
    dictionarySize: -1,
    slots: 0,
  }
  const reader = { view: viewOf(bytes), offset: 0 }
  while (state.slots < total) {
    if (reader.offset >= bytes.length) throw new ParquetDecodeError(`the chunk ends after ${state.slots} of ${total} values`)
    const header = parquetHeader(reader) as PageHeader
    const start = reader.offset
    const body = bytes.subarray(start, start + header.compressed_page_size)
    if (body.length !== header.compressed_page_size) throw new ParquetDecodeError('a page runs past its column chunk')
    reader.offset = start + header.compressed_page_size
    if (header.type === 'DICTIONARY_PAGE') readDictionaryPage(state, header, body)
    else readValues(state, readDataPage(state, header, body))
  }
  const { slots, definitions, repetitions, pool, indices, present } = state
  return { slots, definitions, repetitions, pool, indices: indices.subarray(0, present) }
}

function readDictionaryPage(state: ChunkState, header: PageHeader, body: Uint8Array): void {
  if (state.dictionarySize >= 0 || state.pool.length > 0) throw new ParquetDecodeError('a second dictionary page')
  const page = decompress(body, state.meta.codec, header.uncompressed_page_size)
  readPlain(state.leaf.kind, page, 0, header.dictionary_page_header?.num_values ?? 0, state.pool)
  state.dictionarySize = state.pool.length
}

/** Decodes a data page's levels into the state's slots; its values are left to `readValues`. */
function readDataPage(state: ChunkState, header: PageHeader, body: Uint8Array): DataPage {
  if (header.type === 'DATA_PAGE_V2' && header.data_page_header_v2) return readDataPageV2(state, header, body)
  if (header.type === 'DATA_PAGE' && header.data_page_header) return readDataPageV1(state, header, body)
  throw new ParquetDecodeError(`unsupported page type ${header.type}`)
}

function checkedCount(state: ChunkState, count: number): number {
  if (state.slots + count > state.total) throw new ParquetDecodeError(`pages hold more than the chunk's ${state.total} values`)
  return count
}

/** V2: levels first and never compressed, then the values, compressed unless the header says not. */
function readDataPageV2(state: ChunkState, header: PageHeader, body: Uint8Array): DataPage {
  const v2 = header.data_page_header_v2 as NonNullable<PageHeader['data_page_header_v2']>
  const { leaf, slots } = state
  const count = checkedCount(state, v2.num_values)
  const repetitionBytes = v2.repetition_levels_byte_length
  const definitionBytes = v2.definition_levels_byte_length
  if (state.repetitions)
    readLevels({
      bytes: body,
      offset: 0,
      length: repetitionBytes,
      maxLevel: leaf.maxRepetition,
      output: state.repetitions.subarray(slots, slots + count),
    })
  readLevels({
    bytes: body,
    offset: repetitionBytes,
    length: definitionBytes,
    maxLevel: leaf.maxDefinition,
    output: state.definitions.subarray(slots, slots + count),
  })
  const valueBytes = body.subarray(repetitionBytes + definitionBytes)
  const size = header.uncompressed_page_size - repetitionBytes - definitionBytes
  const page = v2.is_compressed === false ? valueBytes : decompress(valueBytes, state.meta.codec, size)
  return { page, count, encoding: v2.encoding, valuesAt: 0 }
}

/** V1: the whole page compressed; each level run prefixed by its byte length. */
function readDataPageV1(state: ChunkState, header: PageHeader, body: Uint8Array): DataPage {
  const v1 = header.data_page_header as NonNullable<PageHeader['data_page_header']>
  const { leaf, slots } = state
  const count = checkedCount(state, v1.num_values)
  const page = decompress(body, state.meta.codec, header.uncompressed_page_size)
  const view = viewOf(page)
  let offset = 0
  if (state.repetitions) {
    const length = view.getUint32(offset, true)
    readLevels({
      bytes: page,
      offset: offset + 4,
      length,
      maxLevel: leaf.maxRepetition,
      output: state.repetitions.subarray(slots, slots + count),
    })
    offset += 4 + length
  }
  const length = view.getUint32(offset, true)
  readLevels({
    bytes: page,
    offset: offset + 4,
    length,
    maxLevel: leaf.maxDefinition,
    output: state.definitions.subarray(slots, slots + count),
  })
  return { page, count, encoding: v1.encoding, valuesAt: offset + 4 + length }
}

/** The page's present values as indices into the pool: dictionary indices, or new pool entries. */
function readValues(state: ChunkState, data: DataPage): void {
  const { leaf, pool } = state
  const { page, count, encoding, valuesAt } = data
  let pagePresent = 0
  for (let slot = state.slots; slot < state.slots + count; slot++)
    if (state.definitions[slot] === leaf.maxDefinition) pagePresent++
  if (state.present + pagePresent > state.indices.length) {
    const grown = new Uint32Array(Math.max(state.present + pagePresent, Math.min(state.total, state.indices.length * 2)))
    grown.set(state.indices.subarray(0, state.present))
    state.indices = grown
  }
  const pageIndices = state.indices.subarray(state.present, state.present + pagePresent)
  if (encoding === 'RLE_DICTIONARY' || encoding === 'PLAIN_DICTIONARY') {
    if (state.dictionarySize < 0) throw new ParquetDecodeError('dictionary-encoded values without a dictionary page')
    const width = page[valuesAt] as number
    if (pagePresent > 0)
      readRleBitPackedHybrid({ view: viewOf(page), offset: valuesAt + 1 }, width, pageIndices, page.length - valuesAt - 1)
    for (const index of pageIndices)
      if (index >= state.dictionarySize) throw new ParquetDecodeError(`dictionary index ${index} is out of range`)
  } else {
    const first = pool.length
    if (encoding === 'PLAIN') readPlain(leaf.kind, page, valuesAt, pagePresent, pool)
    else if (encoding === 'RLE' && leaf.kind === 'boolean') {
      const bits = new Uint8Array(pagePresent)
      readRleBitPackedHybrid({ view: viewOf(page), offset: valuesAt }, 1, bits)
      for (const bit of bits) pool.push(bit === 1)
    } else throw new ParquetDecodeError(`unsupported value encoding ${encoding}`)
    for (let offset = 0; offset < pagePresent; offset++) pageIndices[offset] = first + offset
  }
  state.present += pagePresent
  state.slots += count
}
