import { describe, expect, it } from 'vitest'
import { columnIndex, columnName } from './cell-reference.js'

describe('cell references', () => {
  it('names columns A…Z, AA…', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA'])
  })

  it('reads the column of a reference, -1 without letters', () => {
    expect(['A1', 'Z9', 'AA1', 'AB12', 'ZZ3', 'AAA1'].map(columnIndex)).toEqual([0, 25, 26, 27, 701, 702])
    expect(columnIndex('12')).toBe(-1)
  })

  it('goes both ways for the first 20,000 columns', () => {
    for (let index = 0; index < 20_000; index++) expect(columnIndex(`${columnName(index)}1`)).toBe(index)
  })
})
