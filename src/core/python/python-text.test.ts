import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { codePointLength, collapseStrip, pythonCasefold, pythonStr, pythonStrip } from './python-text.js'

// What CPython 3.11 prints for these (checked with `python3 -c`), and where JavaScript's own answer differs.
describe('pythonStrip', () => {
  it('strips what str.isspace() accepts, not what String.prototype.trim() does', () => {
    expect(pythonStrip('\x1c\x1f a b \x85\u3000')).toBe('a b')
    expect('\x1c a'.trim()).toBe('\x1c a')
    expect(pythonStrip('\ufeff a \ufeff')).toBe('\ufeff a \ufeff')
    expect('\ufeff a \ufeff'.trim()).toBe('a')
  })

  it('strips one side for lstrip and rstrip', () => {
    expect(pythonStrip('  a  ', 'lstrip')).toBe('a  ')
    expect(pythonStrip('  a  ', 'rstrip')).toBe('  a')
    expect(pythonStrip(' \n ', 'rstrip')).toBe('')
  })

  it('strips the given characters, by code point', () => {
    expect(pythonStrip('\n\nthink\n', 'strip', '\n')).toBe('think')
    expect(pythonStrip('xyaxy', 'lstrip', 'yx')).toBe('axy')
    expect(pythonStrip('😀a😀', 'strip', '😀')).toBe('a')
    expect(pythonStrip('  a  ', 'strip', '')).toBe('  a  ')
  })

  it('returns the very string when nothing is stripped', () => {
    const text = 'no edges'
    expect(pythonStrip(text)).toBe(text)
  })

  it('leaves no whitespace at an edge and only removes edges', () => {
    const space = fc.constantFrom(' ', '\t', '\n', '\x0b', '\x1c', '\x85', '\xa0', '\u2000', '\u3000')
    const piece = fc.oneof(space, fc.string({ maxLength: 3, unit: 'grapheme' }))
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const text = parts.join('')
        const stripped = pythonStrip(text)
        expect(text.includes(stripped)).toBe(true)
        expect(pythonStrip(stripped)).toBe(stripped)
        expect(pythonStrip(pythonStrip(text, 'lstrip'), 'rstrip')).toBe(stripped)
        expect(collapseStrip(text)).toBe(collapseStrip(stripped))
      }),
    )
  })
})

describe('pythonStr, pythonCasefold, codePointLength', () => {
  it('prints scalars as str() does', () => {
    expect([pythonStr(null), pythonStr(true), pythonStr(false), pythonStr(2), pythonStr(2.5), pythonStr(1e-5)]).toEqual([
      'None',
      'True',
      'False',
      '2',
      '2.5',
      '1e-05',
    ])
  })

  it('casefolds as str.casefold() does', () => {
    expect(pythonCasefold('Straße ΣΑΣ')).toBe('strasse σασ')
  })

  it('counts code points as len() does', () => {
    expect(codePointLength('a😀')).toBe(2)
  })
})
