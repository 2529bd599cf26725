import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { collapseWhitespace, pythonStrip } from '../../core/python/python-text.js'
import {
  cleanText,
  detectTrailingCode,
  normalizeLevel,
  normalizeName,
  normalizeType,
  stripTrailingCode,
} from './normalize-cell.js'

describe('cell normalisation', () => {
  it('cleanText equals re.sub(r"\\s+", " ", value.strip()) on any text (the fast path included)', () => {
    const characters = fc.constantFrom(
      'a',
      '中',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u3000',
      '\u00a0',
      '\u001f',
      '\u0085',
      '\ufeff',
      'b',
      '_',
    )
    fc.assert(
      fc.property(fc.array(characters, { maxLength: 12 }), (parts) => {
        const text = parts.join('')
        expect(cleanText(text)).toBe(collapseWhitespace(pythonStrip(text)))
      }),
      { numRuns: 2000 },
    )
  })

  it('normalises levels, types, names and trailing codes as the original preprocessing does', () => {
    expect(['2', ' L2 ', 'level2', 'LEVEL2', 'l2', ''].map(normalizeLevel)).toEqual(['L2', 'L2', 'L2', 'L2', 'L2', ''])
    expect(['L5', '2.5', '二等', 'L2x', '0'].map(normalizeLevel)).toEqual([undefined, undefined, undefined, undefined, undefined])
    // Issue 33: a pandas float, Roman and bare Chinese numerals, an S prefix, an annotation in brackets.
    expect(['2.0', 'Ⅱ级', '二', 'S2', '二级（内部）', 'Level II', 'L2 - internal'].map(normalizeLevel)).toEqual(
      Array(7).fill('L2'),
    )
    // Every common way of writing level 3 (issue 24): digits, L/LEVEL prefixes, 级 forms, full-width digits.
    expect(['3', 'L3', 'l3', 'LEVEL3', 'Level 3', '三级', '3级', '第三级', '第3级', '３', 'Ｌ３'].map(normalizeLevel)).toEqual(
      Array(11).fill('L3'),
    )
    expect(['VARCHAR2(32)', 'number(10,2)', 'datetime', 'int unsigned', 'geometry', ''].map(normalizeType)).toEqual([
      'STRING',
      'DECIMAL',
      'DATETIME',
      'INTEGER',
      'GEOMETRY',
      '',
    ])
    expect(['coil_weight_t', 'Coil Weight-T', '__a__b__', '钢卷 重量'].map(normalizeName)).toEqual([
      'coil_weight_t',
      'coil_weight_t',
      'a_b',
      '钢卷_重量',
    ])
    expect(
      ['生产实绩（B4-1）', '生产实绩 (A1-1-3)', '【A】名称【B2】', '生产实绩', '合同（内部）'].map(detectTrailingCode),
    ).toEqual(['B4-1', 'A1-1-3', 'B2', '', ''])
    expect(stripTrailingCode('生产实绩（B4-1）')).toBe('生产实绩')
    // Dotted, dashed and compact codes in any bracket strip; letters alone are part of the name.
    expect(
      ['征信报告（A.01.02）', '订单信息【B-02-01】', '库存信息(C0101)', '支付流水（POS）', '支付流水（APP）'].map(
        stripTrailingCode,
      ),
    ).toEqual(['征信报告', '订单信息', '库存信息', '支付流水（POS）', '支付流水（APP）'])
  })
})
