import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import goldens from './__fixtures__/python-json-goldens.json' with { type: 'json' }
import { PythonFloat, type PythonJsonOptions, pythonDumpsCompact, pythonFloatRepr, pythonJsonDumps } from './python-json.js'

const optionSets: Record<string, PythonJsonOptions> = {
  default: {},
  unicode: { ensureAscii: false },
  compact: { separators: [',', ':'], ensureAscii: false },
  compact_ascii: { separators: [',', ':'] },
  indent2: { indent: 2 },
  indent2_unicode: { indent: 2, ensureAscii: false },
  sorted: { sortKeys: true },
  indent4_sorted: { indent: 4, sortKeys: true },
}

describe('pythonJsonDumps', () => {
  it.each(goldens.cases.map((testCase, index) => [index, testCase] as const))(
    'golden %i matches CPython json.dumps',
    (_index, testCase) => {
      const options = optionSets[testCase.options]
      expect(options, testCase.options).toBeDefined()
      expect(pythonJsonDumps(testCase.value, options)).toBe(testCase.expected)
    },
  )

  it('prints floats with Python repr', () => {
    for (const [value, expected] of goldens.floats as [number, string][]) {
      expect(pythonFloatRepr(value), String(expected)).toBe(expected)
    }
    expect(pythonFloatRepr(Number.NaN)).toBe('NaN')
    expect(pythonFloatRepr(Number.NEGATIVE_INFINITY)).toBe('-Infinity')
  })

  it('prints PythonFloat-marked integral values as floats', () => {
    expect(pythonJsonDumps({ reward: new PythonFloat(0), done: false })).toBe('{"reward": 0.0, "done": false}')
    expect(pythonJsonDumps([new PythonFloat(-1)], { separators: [',', ':'] })).toBe('[-1.0]')
  })

  it('agrees with JSON.stringify(x, null, 2) on ASCII int data (the v1 observation fast path)', () => {
    const value = { a: [1, { b: 'x', c: [] }], d: {}, e: null }
    expect(pythonJsonDumps(value, { indent: 2 })).toBe(JSON.stringify(value, null, 2))
  })

  it('pythonDumpsCompact (JSON.stringify where it writes the same) equals the general writer on any value', () => {
    for (const testCase of goldens.cases.filter((item) => item.options === 'compact'))
      expect(pythonDumpsCompact(testCase.value)).toBe(testCase.expected)
    // Quotes, backslashes, every escaped control, DEL, U+2028, astral pairs and lone surrogates.
    const text = fc
      .array(
        fc.constantFrom(
          'a',
          '中',
          '"',
          '\\',
          '\n',
          '\b',
          '\f',
          '\u0000',
          '\u001f',
          '\u007f',
          '\u2028',
          '😀',
          '\ud800',
          '\udc00',
          '/',
        ),
        {
          maxLength: 8,
        },
      )
      .map((parts) => parts.join(''))
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('any'), { maxLength: 4 }),
        fc.dictionary(text, tie('any'), { maxKeys: 4 }),
      ),
    })).any
    const compact: PythonJsonOptions = { separators: [',', ':'], ensureAscii: false }
    fc.assert(
      fc.property(value, (item) => {
        expect(pythonDumpsCompact(item)).toBe(pythonJsonDumps(item, compact))
      }),
      { numRuns: 3000 },
    )
  })

  it('refuses values JSON cannot hold', () => {
    expect(() => pythonJsonDumps({ f: () => 1 })).toThrow(TypeError)
  })
})
