/**
 * @module release/trajectories: the rows of one trajectory Parquet file, read with our nested reader
 * against the release's schema (derived from the task's metadata fields and the env's tools). A file that
 * cannot be read, or whose schema differs, is reported through `onError` and yields no further rows
 * (rows of a group are handed out as they are assembled; a group whose leaves turn out inconsistent at
 * its end is reported then).
 *
 * Every row's `tools` must be the env's tools, so a row group's tools leaves are first compared, slot by
 * slot, with the tools shredded once per row; when they match, rows get the expected tools object itself
 * (the row check then sees the very object and skips a deep comparison). A group that does not match is
 * assembled in full, and the row check names the rows whose tools differ.
 */
import type { ChatTool } from '../../chat/chat-message.js'
import type { DecodedLeaf } from '../parquet/column-chunk-decoder.js'
import { ParquetDecodeError } from '../parquet/column-chunk-decoder.js'
import type { CompiledColumns } from '../parquet/compiled-columns.js'
import { NestedParquetFile } from '../parquet/nested-parquet-file.js'
import { RowAssembler } from '../parquet/row-assembler.js'
import { RowShredder } from '../parquet/row-shredder.js'
import { trajectoryColumns } from './trajectory-columns.js'

/** True when the group's `tools` leaves hold exactly `rows` copies of the expected tools' slots. */
function toolsMatch(
  compiled: CompiledColumns,
  leaves: readonly DecodedLeaf[],
  rows: number,
  tools: readonly ChatTool[],
): boolean {
  const column = compiled.columns.find((entry) => entry.name === 'tools')
  if (!column) return false
  const shredder = new RowShredder(compiled)
  shredder.add({ tools })
  const expected = shredder.take().streams
  for (const leaf of column.node.leaves) {
    const want = expected[leaf]
    const have = leaves[leaf]
    if (!want || !have || have.slots !== want.slots * rows || have.indices.length !== want.values.length * rows) return false
    for (let row = 0; row < rows; row++) {
      const slotBase = row * want.slots
      for (let slot = 0; slot < want.slots; slot++) {
        if (have.definitions[slotBase + slot] !== want.definitions[slot]) return false
        if (have.repetitions && have.repetitions[slotBase + slot] !== want.repetitions[slot]) return false
      }
      const valueBase = row * want.values.length
      for (let value = 0; value < want.values.length; value++)
        if (have.pool[have.indices[valueBase + value] as number] !== want.values[value]) return false
    }
  }
  return true
}

export function readTrajectoryRows(options: {
  bytes: Uint8Array
  metadataFields: readonly string[]
  tools: readonly ChatTool[]
  onRow: (row: Record<string, unknown>, index: number) => void
  onError: (message: string) => void
}): void {
  const columns = trajectoryColumns({ tools: options.tools, metadataFields: options.metadataFields })
  let index = 0
  try {
    const file = NestedParquetFile.open(options.bytes, columns)
    const sharedTools = new Map<string, unknown>([['tools', options.tools]])
    file.metadata.row_groups.forEach((group, groupIndex) => {
      const leaves = file.decodeRowGroup(groupIndex) as DecodedLeaf[]
      const assembler = new RowAssembler(file.compiled, leaves)
      const rows = Number(group.num_rows)
      const shared = toolsMatch(file.compiled, leaves, rows, options.tools)
      // Rows go out as they are assembled, so they die young: holding a group's 8,192 rows promoted them
      // all to the old generation, and validation ran ~30% faster once rows were streamed. A group whose
      // leaves disagree still ends in `onError`, which makes every caller refuse the file.
      for (let offset = 0; offset < rows; offset++) options.onRow(assembler.next(shared ? sharedTools : undefined), index++)
      assembler.finish()
    })
  } catch (error) {
    if (ParquetDecodeError.isInstance(error)) options.onError(error.message)
    else options.onError(`unreadable Parquet (${(error as Error).message})`)
  }
}
