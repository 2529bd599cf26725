/**
 * @module release/parquet: a Parquet file read against the shape it must have. Opening
 * checks the footer and that the file's schema is exactly the expected one (names, nesting, repetition,
 * physical types, UTF-8 and LIST annotations as either converted or logical types, so pyarrow's files
 * pass too); row groups are then decoded leaf by leaf and assembled into rows.
 */
import type { FileMetaData, SchemaElement } from 'hyparquet'
import { parquetMetadata } from 'hyparquet'
import { type DecodedLeaf, decodeColumnChunk, ParquetDecodeError } from './column-chunk-decoder.js'
import { type CompiledColumns, compileColumns } from './compiled-columns.js'
import { type ParquetField, parquetSchemaOf } from './parquet-shape.js'
import { RowAssembler } from './row-assembler.js'

function annotation(element: SchemaElement): string | undefined {
  if (element.converted_type === 'UTF8' || element.logical_type?.type === 'STRING') return 'UTF8'
  if (element.converted_type === 'LIST' || element.logical_type?.type === 'LIST') return 'LIST'
  return undefined
}

/** Differences between a file's schema and the expected one (empty when they agree). */
function schemaDifferences(actual: readonly SchemaElement[], expected: readonly SchemaElement[]): string[] {
  if (actual.length !== expected.length) return [`the schema has ${actual.length} elements, expected ${expected.length}`]
  const parents: { name: string; remaining: number }[] = []
  for (let index = 0; index < expected.length; index++) {
    const have = actual[index] as SchemaElement
    const want = expected[index] as SchemaElement
    while (parents.length > 0 && parents.at(-1)?.remaining === 0) parents.pop()
    const parent = parents.at(-1)
    if (parent) parent.remaining--
    const where = index === 0 ? 'root' : [...parents.slice(1).map((entry) => entry.name), want.name].join('.')
    const fields: [string, unknown, unknown][] = [
      // The root's name is free (we write root, pyarrow writes schema).
      ['name', index === 0 ? 'root' : have.name, index === 0 ? 'root' : want.name],
      ['children', have.num_children ?? 0, want.num_children ?? 0],
      ['repetition', index === 0 ? 'root' : (have.repetition_type ?? 'REQUIRED'), index === 0 ? 'root' : want.repetition_type],
      ['type', have.type, want.type],
      ['annotation', annotation(have), annotation(want)],
    ]
    const differences = fields
      .filter(([, got, wanted]) => got !== wanted)
      .map(([field, got, wanted]) => `${where}: ${field} is ${String(got)}, expected ${String(wanted)}`)
    if (differences.length > 0) return differences
    if ((want.num_children ?? 0) > 0) parents.push({ name: want.name, remaining: want.num_children as number })
  }
  return []
}

export class NestedParquetFile {
  readonly metadata: FileMetaData
  readonly compiled: CompiledColumns

  private constructor(
    private readonly bytes: Uint8Array,
    metadata: FileMetaData,
    compiled: CompiledColumns,
  ) {
    this.metadata = metadata
    this.compiled = compiled
  }

  /** Reads the footer and checks the schema; throws `ParquetDecodeError` with the differences. */
  static open(bytes: Uint8Array, columns: readonly ParquetField[]): NestedParquetFile {
    if (bytes.length < 12) throw new ParquetDecodeError('the file is too short to be Parquet')
    let metadata: FileMetaData
    try {
      metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
    } catch (error) {
      throw new ParquetDecodeError(`unreadable footer: ${(error as Error).message}`)
    }
    const differences = schemaDifferences(metadata.schema, parquetSchemaOf(columns))
    if (differences.length > 0) throw new ParquetDecodeError(`schema differs from the release schema: ${differences.join('; ')}`)
    return new NestedParquetFile(bytes, metadata, compileColumns(columns))
  }

  get rowCount(): number {
    return Number(this.metadata.num_rows)
  }

  /** Decodes every leaf of row group `group` (or only the leaves `only` holds; the others stay undefined). */
  decodeRowGroup(group: number, only?: ReadonlySet<number>): (DecodedLeaf | undefined)[] {
    const rowGroup = this.metadata.row_groups[group]
    if (!rowGroup) throw new ParquetDecodeError(`no row group ${group}`)
    if (rowGroup.columns.length !== this.compiled.leaves.length)
      throw new ParquetDecodeError(
        `row group ${group} has ${rowGroup.columns.length} column chunks, expected ${this.compiled.leaves.length}`,
      )
    return this.compiled.leaves.map((leaf, index) => {
      if (only && !only.has(index)) return undefined
      const meta = rowGroup.columns[index]?.meta_data
      if (!meta || meta.path_in_schema.join('.') !== leaf.path.join('.'))
        throw new ParquetDecodeError(`row group ${group} column ${index} is not ${leaf.path.join('.')}`)
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset)
      const end = start + Number(meta.total_compressed_size)
      if (start < 4 || end > this.bytes.length)
        throw new ParquetDecodeError(`column chunk ${leaf.path.join('.')} lies outside the file`)
      try {
        return decodeColumnChunk(leaf, meta, this.bytes.subarray(start, end))
      } catch (error) {
        throw new ParquetDecodeError(`row group ${group}, column ${leaf.path.join('.')}: ${(error as Error).message}`)
      }
    })
  }
}

/** Every row of a file, read with our reader against `columns` (throws `ParquetDecodeError`). */
export function readNestedParquetRows(bytes: Uint8Array, columns: readonly ParquetField[]): Record<string, unknown>[] {
  const file = NestedParquetFile.open(bytes, columns)
  const rows: Record<string, unknown>[] = []
  file.metadata.row_groups.forEach((group, index) => {
    const assembler = new RowAssembler(file.compiled, file.decodeRowGroup(index) as DecodedLeaf[])
    for (let offset = 0; offset < Number(group.num_rows); offset++) rows.push(assembler.next())
    assembler.finish()
  })
  return rows
}
