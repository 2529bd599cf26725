import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stableRecordId, uuid5 } from './stable-record-id.js'

/** RFC 4122 §4.3 step by step, on bytes (the reference the string-built id must equal). */
function referenceUuid5(name: string): string {
  const namespace = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex')
  const digest = createHash('sha1').update(namespace).update(name, 'utf8').digest()
  digest[6] = ((digest[6] as number) & 0x0f) | 0x50
  digest[8] = ((digest[8] as number) & 0x3f) | 0x80
  const hex = digest.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

describe('stable record ids', () => {
  it('uuid5 equals the byte-level construction for any name, long names included', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme', maxLength: 200 })), (name) => {
        expect(uuid5(name)).toBe(referenceUuid5(name))
      }),
      { numRuns: 3000 },
    )
    // Python: str(uuid.uuid5(uuid.NAMESPACE_URL, "python.org"))
    expect(uuid5('python.org')).toBe('7af94e2b-4dd9-50f0-9c9a-8a48519bdef0')
  })

  it('ignores edge and repeated whitespace in the identifying fields, and nothing else', () => {
    const id = stableRecordId('steel', { database_name: 'mes', table_name: 'coil actual', field_name: 'Coil_No' })
    expect(stableRecordId(' steel ', { database_name: 'mes\t', table_name: 'coil \u3000actual', field_name: 'Coil_No' })).toBe(id)
    expect(stableRecordId('steel', { database_name: 'mes', table_name: 'coil actual', field_name: 'coil_no' })).not.toBe(id)
    expect(
      stableRecordId('steel', { database_name: 'mes', table_name: 'coil actual', field_name: 'Coil_No', field_description: 'x' }),
    ).toBe(id)
  })
})
