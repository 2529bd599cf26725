import { describe, expect, it } from 'vitest'
import { decodeRowBatch } from './read-xlsx-in-worker.js'

describe('decodeRowBatch', () => {
  it('reads each row: number, hidden mark, kinds and cells', () => {
    const text = ['3\u0000sn\u0000a\u00001', '7h\u0000\u0000b\u0000\u0000c'].join('\u0001')
    expect(decodeRowBatch(text, 'Sheet1')).toEqual([
      { rowNumber: 3, cells: ['a', '1'], sheet: 'Sheet1', kinds: 'sn' },
      { rowNumber: 7, cells: ['b', '', 'c'], sheet: 'Sheet1', hidden: true },
    ])
  })

  it('keeps a row of one empty cell', () => {
    expect(decodeRowBatch('12\u0000\u0000', 'S')).toEqual([{ rowNumber: 12, cells: [''], sheet: 'S' }])
  })
})
