/** The demo workbook is a valid zip and a valid SpreadsheetML package for Python's zipfile. */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildXlsx } from '../src/release/xlsx/write-xlsx.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'

describe('xlsx writer output, checked by Python', () => {
  it('has consistent CRCs, sizes and directory, and the parts a workbook needs', () => {
    const path = join(temporaryDirectory('zip'), 'book.xlsx')
    writeFileSync(
      path,
      buildXlsx([
        {
          name: '目录',
          rows: [
            ['表名', '分级'],
            ['t', 2],
          ],
        },
        { name: 'b', rows: [['x']] },
      ]),
    )
    const script = 'import json, sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(json.dumps([z.testzip(), z.namelist()]))'
    const result = spawnSync(testPython(), ['-c', script, path], { encoding: 'utf8' })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual([
      null,
      [
        '[Content_Types].xml',
        '_rels/.rels',
        'xl/workbook.xml',
        'xl/_rels/workbook.xml.rels',
        'xl/styles.xml',
        'xl/sharedStrings.xml',
        'xl/worksheets/sheet1.xml',
        'xl/worksheets/sheet2.xml',
      ],
    ])
  })
})
