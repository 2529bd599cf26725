/**
 * @module release/demo: the demo's standards as their publishers lay them out: a classification workbook
 * with one leaf a row and each ancestor merged down its leaves, and a grading workbook of levels —
 * the input of `release standards build`.
 */

import { columnName } from '../xlsx/cell-reference.js'
import type { XlsxSheet } from '../xlsx/write-xlsx.js'

const levelNames = ['一级分类', '二级分类', '三级分类', '四级分类', '五级分类']
const levelText: Readonly<Record<string, string>> = { L1: '一级', L2: '二级', L3: '三级', L4: '四级' }

interface StandardEntry {
  name: string
  path: readonly string[]
  code: string | null
  description: string
  standard_data_level: string | null
  content?: string
}

export function classificationWorkbook(entries: readonly StandardEntry[]): XlsxSheet {
  const depth = Math.max(...entries.map((entry) => entry.path.length + 1))
  const header = [...levelNames.slice(0, depth), '编码', '说明', '示例', '建议级别']
  const rows = entries.map((entry) => {
    const levels = [...entry.path, entry.name]
    return [
      ...Array.from({ length: depth }, (_, index) => levels[index] ?? ''),
      entry.code ?? '',
      entry.description,
      entry.content ?? '',
      entry.standard_data_level ? (levelText[entry.standard_data_level] ?? entry.standard_data_level) : '',
    ]
  })
  // Each ancestor column: a run of rows under the same ancestors shows its value once, merged down.
  const merges: string[] = []
  const shown = rows.map((row) => [...row])
  for (let column = 0; column < depth - 1; column++) {
    let start = 0
    for (let index = 1; index <= rows.length; index++) {
      const same = (a: number, b: number) =>
        rows[a]?.slice(0, column + 1).join('\u0000') === rows[b]?.slice(0, column + 1).join('\u0000')
      if (index < rows.length && same(index, start)) {
        ;(shown[index] as string[])[column] = ''
        continue
      }
      if (index - 1 > start) merges.push(`${columnName(column)}${start + 2}:${columnName(column)}${index + 1}`)
      start = index
    }
  }
  return { name: '分类标准', rows: [header, ...shown], merges }
}

export function gradingWorkbook(grading: { levels: readonly string[]; descriptions?: readonly string[] }): XlsxSheet {
  return {
    name: '分级标准',
    rows: [['级别', '说明'], ...grading.levels.map((level, index) => [level, grading.descriptions?.[index] ?? ''])],
  }
}
