import { describe, expect, it } from 'vitest'
import { emptySheets } from './preprocess-rows.js'

describe('emptySheets', () => {
  it('lists, in tab order, the sheets no row came from', () => {
    expect(emptySheets({ sheetNames: ['a', 'b', 'c', 'd'], seen: ['c', 'a'] })).toEqual([
      { sheet: 'b', reason: 'the sheet is empty' },
      { sheet: 'd', reason: 'the sheet is empty' },
    ])
  })

  it('lists only the named sheets when some were named; an empty list names none', () => {
    expect(emptySheets({ sheetNames: ['a', 'b', 'c'], seen: [], named: ['c'] })).toEqual([
      { sheet: 'c', reason: 'the sheet is empty' },
    ])
    expect(emptySheets({ sheetNames: ['a'], seen: [], named: [] }).map((entry) => entry.sheet)).toEqual(['a'])
  })
})
