import { describe, expect, it } from 'vitest'
import { decodeCsvBytes } from './decode-csv-bytes.js'
import { detectDelimiter } from './detect-delimiter.js'

describe('detectDelimiter', () => {
  it('finds the separator that splits most records alike, quotes respected, a title row allowed', () => {
    expect(detectDelimiter('a;b;c\r\n1;"x, y";3\r\n4;5;6\r\n', 'f.csv')).toBe(';')
    expect(detectDelimiter('Title\na\tb\n1\t2\n3\t4\n5\t6\n', 'f.tsv')).toBe('\t')
    expect(detectDelimiter('a|b\n1|2\n', 'f.csv')).toBe('|')
    expect(detectDelimiter('a,b\n"1,2",3\n', 'f.csv')).toBe(',')
  })

  it('refuses two separators that fit equally', () => {
    expect(() => detectDelimiter('a,b;c\n1,2;3\n', 'f.csv')).toThrow(/--delimiter/)
  })
})

describe('decodeCsvBytes', () => {
  const text = 'a,b\r\n€ ü,中\r\n'
  it('reads UTF-8 and UTF-16 without being told, with or without a byte-order mark', () => {
    expect(decodeCsvBytes(Buffer.from(text), 'f').encoding).toBe('utf-8')
    expect(decodeCsvBytes(Buffer.from(text, 'utf16le'), 'f')).toEqual({ text, encoding: 'utf-16le' })
    expect(decodeCsvBytes(Buffer.from(text, 'utf16le').swap16(), 'f')).toEqual({ text, encoding: 'utf-16be' })
  })

  it('never guesses a legacy encoding; decodes windows-1252 by its table when given', () => {
    const bytes = Uint8Array.from([0x80, 0x20, 0xfc, 0x93, 0x94])
    expect(() => decodeCsvBytes(bytes, 'f.csv')).toThrow(/encodings tried: utf-8/)
    expect(decodeCsvBytes(bytes, 'f.csv', 'windows-1252').text).toBe('€ ü“”')
    expect(decodeCsvBytes(bytes, 'f.csv', 'cp1252').encoding).toBe('windows-1252')
    expect(() => decodeCsvBytes(bytes, 'f.csv', 'klingon')).toThrow(/Unknown encoding/)
  })
})
