/**
 * @module envs/grading: the stable record id: `uuid5(NAMESPACE_URL, dataset␟database␟table␟field)` over
 * whitespace-collapsed values, as the original computes it. Renaming the input file or reordering its rows
 * never changes an id.
 */
import { hash } from 'node:crypto'
import { collapseStrip } from '../../core/python/python-text.js'

/** RFC 4122 `NAMESPACE_URL`. */
const namespaceUrl = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex')

/** namespace ‖ UTF-8 name, assembled in one reused buffer (ids are made once a record, by the hundred thousand). */
let scratch = Buffer.allocUnsafe(256)

/** Python's `str(uuid.uuid5(namespace, name))`. */
export function uuid5(name: string, namespace: Uint8Array = namespaceUrl): string {
  const most = namespace.length + name.length * 3
  if (scratch.length < most) scratch = Buffer.allocUnsafe(most)
  scratch.set(namespace, 0)
  const length = namespace.length + scratch.write(name, namespace.length, 'utf8')
  // A hex digest (Node makes it several times faster than a Buffer one); the version nibble becomes 5 and
  // the variant's top two bits 10, as uuid.uuid5 sets them.
  const hex = hash('sha1', scratch.subarray(0, length), 'hex')
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** The metadata fields that identify a source record. */
const recordIdFields = ['database_name', 'table_name', 'field_name'] as const

const identityText = (value: unknown): string => (value === undefined || value === null ? '' : collapseStrip(String(value)))

export function stableRecordId(dataset: string, metadata: Readonly<Record<string, unknown>>): string {
  let name = identityText(dataset)
  for (const field of recordIdFields) name += `\u001f${identityText(metadata[field])}`
  return uuid5(name)
}
