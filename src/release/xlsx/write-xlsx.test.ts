import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readXlsxRows } from './read-xlsx-rows.js'
import { buildXlsx } from './write-xlsx.js'

const directory = mkdtempSync(join(tmpdir(), 'releaseops-xlsx-'))
const sheets = [
  {
    name: '数据资产目录',
    rows: [
      ['表名', '字段名', '描述', '分级'],
      ['hr_employee', 'emp_name', 'a & b < c > "d" \'e\'', 2],
      ['  spaced  ', '', '多行\n文本\t制表', 'L3'],
      [null, 'x', undefined, 1.25],
    ],
  },
  { name: 'notes', rows: [['only', 'this']] },
]

async function read(path: string, sheet?: string) {
  const rows: { rowNumber: number; cells: string[] }[] = []
  for await (const { rowNumber, cells } of readXlsxRows({ path, sheets: [sheet ?? '数据资产目录'] }).rows)
    rows.push({ rowNumber, cells })
  return rows
}

describe('xlsx writer', () => {
  it('writes byte-identical workbooks for identical sheets', () => {
    expect(buildXlsx(sheets).equals(buildXlsx(sheets))).toBe(true)
  })

  it('round-trips through our reader: CJK, XML specials, whitespace, numbers, gaps and several sheets', async () => {
    const path = join(directory, 'round-trip.xlsx')
    writeFileSync(path, buildXlsx(sheets))
    expect(await read(path)).toEqual([
      { rowNumber: 1, cells: ['表名', '字段名', '描述', '分级'] },
      { rowNumber: 2, cells: ['hr_employee', 'emp_name', 'a & b < c > "d" \'e\'', '2'] },
      { rowNumber: 3, cells: ['  spaced  ', '', '多行\n文本\t制表', 'L3'] },
      { rowNumber: 4, cells: ['', 'x', '', '1.25'] },
    ])
    expect(await read(path, 'notes')).toEqual([{ rowNumber: 1, cells: ['only', 'this'] }])
  })

  it('refuses characters XML cannot carry', () => {
    expect(() => buildXlsx([{ name: 's', rows: [['bad\u0001']] }])).toThrowError(
      expect.objectContaining({ code: 'invalid_cell_text' }),
    )
  })
})
