/**
 * @module envs/grading: the stable record id: `uuid5(NAMESPACE_URL, dataset␟database␟table␟field)` over
 * whitespace-collapsed values, as the original computes it. Renaming the input file or reordering its rows
 * never changes an id.
 */
import { hash } from 'node:crypto'
import { collapseStrip } from './text/python-text.js'

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
  const digest = hash('sha1', scratch.subarray(0, length), 'buffer')
  digest[6] = ((digest[6] as number) & 0x0f) | 0x50
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80
  const hex = digest.toString('hex', 0, 16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The metadata fields that identify a source record. */
export const recordIdFields = ['database_name', 'table_name', 'field_name'] as const

const identityText = (value: unknown): string => (value === undefined || value === null ? '' : collapseStrip(String(value)))

export function stableRecordId(dataset: string, metadata: Readonly<Record<string, unknown>>): string {
  let name = identityText(dataset)
  for (const field of recordIdFields) name += `\u001f${identityText(metadata[field])}`
  return uuid5(name)
}
