import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortByKey } from './sort-by-key.js'

/** The reference: a stable comparator sort on UTF-16 code units. */
const reference = <T>(items: readonly T[], keyOf: (item: T) => string) =>
  [...items].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0))

describe('sorting by key', () => {
  it('orders any keys as a stable code-unit sort does: hex heads, shared heads, duplicates, others', () => {
    const hex = fc.constantFrom(...'0123456789abcdef')
    const head = fc.oneof(
      fc.constantFrom('00000000', 'ffffffff', '0a0b0c0d'),
      fc.array(hex, { minLength: 8, maxLength: 8 }).map((d) => d.join('')),
    )
    const uuidLike = fc.tuple(head, fc.string({ maxLength: 6 })).map(([start, rest]) => `${start}${rest}`)
    const key = fc.oneof(uuidLike, uuidLike, fc.string({ maxLength: 10 }))
    fc.assert(
      fc.property(fc.array(key, { maxLength: 60 }), fc.boolean(), (keys, hexOnly) => {
        const items = keys.filter((text) => !hexOnly || /^[0-9a-f]{8}/.test(text)).map((id, index) => ({ id, index }))
        expect(sortByKey(items, (item) => item.id)).toEqual(reference(items, (item) => item.id))
      }),
      { numRuns: 2000 },
    )
  })

  it('orders 100,000 UUIDs as the string sort does', () => {
    const ids = Array.from({ length: 100_000 }, (_, index) => {
      const hex = ((index * 2654435761) % 2 ** 32).toString(16).padStart(8, '0')
      return { id: `${hex}-${(index % 4096).toString(16).padStart(4, '0')}-5000-8000-000000000000` }
    })
    expect(sortByKey(ids, (item) => item.id)).toEqual(reference(ids, (item) => item.id))
  })
})
