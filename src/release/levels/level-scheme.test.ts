import { describe, expect, it } from 'vitest'
import { defaultCatalogueScheme, levelScheme, resolveLevel } from './level-scheme.js'
import { chineseNumber, readLevelSpelling, romanNumber } from './level-spelling.js'

const five = levelScheme({ levels: ['L1', 'L2', 'L3', 'L4', 'L5'] })
const named = levelScheme({
  levels: ['L1', 'L2', 'L3', 'L4', 'L5'],
  levelMap: { Public: 'L1', Internal: 'L2', Confidential: 'L3', Restricted: 'L4', Secret: 'L5' },
})
const level = (raw: string, scheme = five) => {
  const result = resolveLevel(raw, scheme)
  return 'level' in result ? result.level : `problem: ${result.problem}`
}

describe('levels as people write them (issue 33, item 9)', () => {
  it('reads every spelling of level 3 the issue lists, and the old ones', () => {
    const spellings = ['Ⅲ级', '3.0', '三', 'S3', '三级（敏感）', '3', 'L3', 'l3', 'LEVEL3', 'Level 3', '三级', '3级', '第三级']
    spellings.push('第3级', '３', 'Ｌ３', 'Level III', 'III', 'L3 敏感', 'Level 3 - Confidential', '3 (Confidential)', 'LV3')
    expect(spellings.map((raw) => level(raw))).toEqual(spellings.map(() => 'L3'))
  })

  it('any number of levels the standard declares: 5级 in a five-level scheme, refused in the default four', () => {
    expect(level('5级')).toBe('L5')
    expect(level('五级')).toBe('L5')
    expect(level('5级', defaultCatalogueScheme)).toMatch(/outside this standard's 4 levels/)
    const twelve = levelScheme({ levels: Array.from({ length: 12 }, (_, index) => `L${index + 1}`) })
    expect([level('十二级', twelve), level('L10', twelve), level('Level XI', twelve)]).toEqual(['L12', 'L10', 'L11'])
  })

  it('named levels resolve through the level map, case-insensitively, in English and Chinese', () => {
    expect(['Public', 'internal', 'CONFIDENTIAL', ' Restricted ', 'secret'].map((raw) => level(raw, named))).toEqual([
      'L1',
      'L2',
      'L3',
      'L4',
      'L5',
    ])
    const chinese = levelScheme({ levels: ['L1', 'L2', 'L3'], levelMap: { 公开: 'L1', 内部: 'L2', 敏感: 'L3' } })
    expect([level('公开', chinese), level('敏感', chinese), level('三级（敏感）', chinese)]).toEqual(['L1', 'L3', 'L3'])
    expect(level('Confidential (L3)', named)).toBe('L3')
  })

  it('refuses, with a reason, what names no level or names two', () => {
    expect(level('Top Secret', named)).toMatch(/"Top Secret" is not a level of this standard \(L1, L2, L3, L4, L5; named Public/)
    expect(level('Confidential')).toMatch(/needs a level map in the grading standard/)
    expect(level('L3 (Public)', named)).toMatch(/names level L3 and, in its annotation, L1/)
    expect(level('三级（二级）')).toMatch(/names level L3 and, in its annotation, L2/)
    for (const raw of ['二等', 'L2x', '3.5', '0', 'L0', 'high']) expect(level(raw), raw).toMatch(/^problem: /)
    const codes = levelScheme({ levels: ['S1', 'S2'] })
    expect([level('s2', codes), level('2', codes)]).toEqual(['S2', expect.stringMatching(/levels are codes/)])
  })

  it('empty cells are empty, never a level', () => {
    expect([level(''), level('   ')]).toEqual(['', ''])
    expect(readLevelSpelling('\u3000')).toEqual({ kind: 'empty' })
  })

  it('numerals: Chinese to 九十九, Roman to XXXIX, nothing else', () => {
    expect(['一', '十', '十一', '二十', '九十九'].map(chineseNumber)).toEqual([1, 10, 11, 20, 99])
    expect(['', '十十', '百', '零'].map(chineseNumber)).toEqual([undefined, undefined, undefined, undefined])
    expect(['I', 'IV', 'IX', 'XIV', 'XXXIX'].map(romanNumber)).toEqual([1, 4, 9, 14, 39])
    expect(['', 'IIII', 'VX', 'L'].map(romanNumber)).toEqual([undefined, undefined, undefined, undefined])
  })
})
