import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalizeKeyText } from '../../core/python/python-text.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import { PromptKeys } from './prompt-key.js'

/** The plain form: the key's text, built from the normalised names. */
const plainKey = (metadata: { field_name: string; table_name: string }) =>
  `${normalizeKeyText(metadata.field_name)}\u001f${normalizeKeyText(metadata.table_name)}`

// Names that collide after normalisation (case, full-width forms, edge and inner whitespace) as well as plain ones.
const name = fc.oneof(
  fc.constantFrom(
    'coil_no',
    'COIL_NO',
    'ｃｏｉｌ＿ｎｏ',
    ' coil_no ',
    'coil  no',
    'coil no',
    'Straße',
    'STRASSE',
    '基本信息',
    '',
  ),
  fc.string({ maxLength: 6 }),
)

describe('PromptKeys', () => {
  it('gives two records the same number exactly when their key texts are equal, and that text back', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ field_name: name, table_name: name }), { maxLength: 40 }), (names) => {
        const keys = new PromptKeys()
        const numbers = names.map((metadata) => keys.of(metadata as CanonicalRecord['metadata']))
        names.forEach((a, i) => {
          expect(keys.text(numbers[i] as number)).toBe(plainKey(a))
          expect(keys.field(numbers[i] as number)).toBe(normalizeKeyText(a.field_name))
          names.forEach((b, j) => {
            expect(numbers[i] === numbers[j]).toBe(plainKey(a) === plainKey(b))
          })
        })
      }),
    )
  })
})
