import { describe, expect, it } from 'vitest'
import { buildStandards } from './build-standards.js'
import { classificationColumns, gradingColumns, isStandardHeader } from './standard-columns.js'
import { headerParts, levelColumnDepth } from './standard-header-aliases.js'

describe('standards headers in English, Chinese and both (issue 33, item 7)', () => {
  it('level columns by their number, whatever the language or the case', () => {
    const headers = [
      '一级分类',
      'Level 2',
      'CATEGORY LEVEL 3',
      'third-level class',
      '四级类目\nLevel 4',
      'Level-5 Category',
      '第六级',
      'L7',
    ]
    expect(headers.map(levelColumnDepth)).toEqual([1, 2, 3, 3, 4, 5, 6, 7])
    expect(['Level', 'Suggested level', '三级编码', 'Level 1-3', '级别'].map(levelColumnDepth)).toEqual([0, 0, 0, 0, 0])
    expect(headerParts('一级分类 Level 1')).toEqual(['一级分类 level 1', '一级分类', 'level 1'])
    expect(headerParts('Description (EN)：')).toEqual(['description (en)', 'description', 'en'])
  })

  it('finds every used column case-insensitively, in either language, a whole-text match first', () => {
    const english = classificationColumns({
      headers: ['level 1', 'LEVEL 2', 'Category Code', 'description', 'Description (CN)', 'EXAMPLES', 'Suggested Level'],
      idStrategy: 'path',
    })
    expect(english).toEqual({
      columns: {
        levels: ['level 1', 'LEVEL 2'],
        code: 'Category Code',
        description: 'description',
        examples: 'EXAMPLES',
        suggested_level: 'Suggested Level',
      },
      errors: [],
      missing: [],
      unused: [{ header: 'Description (CN)', looks_like: 'description' }],
    })
    const bilingual = classificationColumns({
      headers: [
        '一级分类\nLevel 1',
        '二级分类\nLevel 2',
        '三级编码\nLevel 3 Code',
        '二级编码',
        '说明 / Description',
        '示例\nExamples',
        '建议级别\nSuggested level',
      ],
      idStrategy: 'code',
    })
    expect(bilingual.columns).toMatchObject({
      code: '三级编码 Level 3 Code',
      description: '说明 / Description',
      examples: '示例 Examples',
    })
    expect(gradingColumns({ headers: ['级别\nLevel', '名称\nName', '说明\nDescription'] }).columns).toEqual({
      level: '级别 Level',
      name: '名称 Name',
      description: '说明 Description',
    })
  })

  it('a column missing is named; a mapping names it, or declares it absent with null; a mapped header must exist', () => {
    const headers = ['Level 1', 'Level 2', 'Text', 'Suggested level']
    expect(classificationColumns({ headers, idStrategy: 'path' }).missing).toEqual(['description', 'examples'])
    const mapped = classificationColumns({ headers, idStrategy: 'path', mapping: { description: 'Text', examples: null } })
    expect(mapped).toMatchObject({ columns: { description: 'Text', examples: null }, errors: [], missing: [] })
    const wrong = classificationColumns({
      headers,
      idStrategy: 'path',
      mapping: { levels: ['Level 1', 'Level 3'], description: 'Notes' },
    })
    expect(wrong.errors).toEqual([
      'the mapped classification level column "Level 3" is not in the header row (Level 1, Level 2, Text, Suggested level)',
      'the mapped classification header "Notes" (description) is not in the header row (Level 1, Level 2, Text, Suggested level)',
    ])
    expect(classificationColumns({ headers: ['Level 1', 'Level 3', 'Description'], idStrategy: 'path' }).errors).toEqual([
      'level columns were found for levels 1, 3 only: name every level column in --mapping',
    ])
  })

  it('the header row: the mapped headers, or a level column', () => {
    expect(isStandardHeader({ cells: ['Title of the standard'], table: 'classification' })).toBe(false)
    expect(isStandardHeader({ cells: ['Domain', 'Level 2'], table: 'classification' })).toBe(true)
    const mapping = { classification: { levels: ['Domain', 'Group'] }, grading: {} }
    expect(isStandardHeader({ cells: ['Domain', 'Group', 'Leaf'], table: 'classification', mapping })).toBe(true)
    expect(isStandardHeader({ cells: ['Domain', 'Leaf'], table: 'classification', mapping })).toBe(false)
    expect(isStandardHeader({ cells: ['Grade', 'Meaning'], table: 'grading' })).toBe(true)
  })

  it('a repeated header is refused only where the build uses it', () => {
    const table = (headers: string[], repeatedHeaders: string[]) => ({
      headers,
      repeatedHeaders,
      mergedRanges: 0,
      rows: [
        {
          row: 2,
          cells: {
            'Level 1': 'A',
            'Level 2': 'B',
            Code: '010101',
            Description: 'd',
            Examples: 'e',
            'Suggested level': 'L1',
            Notes: '',
          },
        },
      ],
    })
    const headers = ['Level 1', 'Level 2', 'Code', 'Description', 'Examples', 'Suggested level', 'Notes', 'Notes']
    const grading = { headers: ['Level', 'Description'], rows: [{ row: 2, cells: { Level: 'L1', Description: 'public' } }] }
    const build = (repeated: string[]) =>
      buildStandards({ dataset: 'grid', idStrategy: 'code', source: 's.xlsx', classification: table(headers, repeated), grading })
    const passed = build(['Notes'])
    expect(passed.report).toMatchObject({ status: 'passed', unparsed_codes: [] })
    expect(passed.registry.categories[0]?.category_id).toBe('010101')
    const refused = build(['Description'])
    expect(refused.report.errors).toContain('the classification header "Description" appears more than once: rename one of them')
  })
})
