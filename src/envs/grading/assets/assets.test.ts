import { describe, expect, it } from 'vitest'
import { createGradingTask } from '../grading-task.js'
import { parseCategoryCorpus } from './category-corpus.js'
import { gradingRubric, parseGradingConfig } from './grading-config.js'
import { parseLeafRegistry } from './leaf-registry.js'
import { parseTaskConfig } from './task-config.js'

const ids = ['a', 'b', 'c', 'd', 'e']
const issuesOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return (error as { code: string; issues: { path: string; message: string }[] }).issues.map(
      (issue) => `${issue.path} ${issue.message}`,
    )
  }
  throw new Error('expected an error')
}

describe('task assets', () => {
  it('a registry accepts the original shapes: an object, a bare list, bare id strings', () => {
    expect(
      parseLeafRegistry({ categories: ids.map((id) => ({ category_id: ` ${id} `, description: null })) }).categories[0],
    ).toEqual({
      category_id: 'a',
      name: 'a',
      description: '',
      path: [],
      code: null,
    })
    expect(parseLeafRegistry(ids).categories.map((category) => category.name)).toEqual(ids)
  })

  it('a registry needs five leaves and unique non-empty ids, with file-anchored paths', () => {
    expect(issuesOf(() => parseLeafRegistry(['a', 'b'], 'r.json'))).toEqual([
      'r.json:categories a leaf registry needs at least 5 categories, got 2',
    ])
    expect(issuesOf(() => parseLeafRegistry([...ids, 'c'], 'r.json'))).toEqual([
      'r.json:categories.5.category_id duplicate category_id "c" (first at categories.2)',
    ])
    expect(issuesOf(() => parseLeafRegistry([...ids, ' '], 'r.json'))[0]).toMatch(/^r\.json:categories\.5\.category_id /)
  })

  it('a corpus rejects duplicate ids and empty names; the task requires it to cover the registry exactly', () => {
    const corpus = (list: string[]) => ({ categories: list.map((id) => ({ category_id: id, name: id.toUpperCase() })) })
    expect(issuesOf(() => parseCategoryCorpus({ categories: [{ category_id: 'a', name: ' ' }] }, 'c.json'))[0]).toMatch(
      /^c\.json:categories\.0\.name /,
    )
    expect(issuesOf(() => parseCategoryCorpus(corpus(['a', 'a']), 'c.json'))[0]).toMatch(/duplicate category_id "a"/)
    const grading = parseGradingConfig({ levels: ['L1', 'L2'] })
    const mismatch = () =>
      createGradingTask({
        registry: parseLeafRegistry(ids),
        corpus: parseCategoryCorpus(corpus(['a', 'b', 'c', 'd', 'x'])),
        grading,
      })
    expect(mismatch).toThrowError(expect.objectContaining({ code: 'corpus_registry_mismatch' }))
    expect(issuesOf(mismatch)).toEqual([
      'registry:categories.4.category_id registry category "e" has no corpus entry',
      'corpus:categories.4.category_id corpus category "x" is not in the registry',
    ])
  })

  it('display names must be distinguishable', () => {
    const registry = parseLeafRegistry({ categories: [...ids.slice(0, 4), 'z'].map((id) => ({ category_id: id, name: 'same' })) })
    const corpus = parseCategoryCorpus({
      categories: registry.categories.map((category) => ({ category_id: category.category_id, name: 'same' })),
    })
    expect(() => createGradingTask({ registry, corpus, grading: parseGradingConfig({ levels: ['L1'] }) })).toThrowError(
      expect.objectContaining({ code: 'ambiguous_display_name' }),
    )
  })

  it('the grading config is strict, aligned and unique; its rubric pairs codes and descriptions', () => {
    expect(issuesOf(() => parseGradingConfig({ levels: ['L1'], gt: 'x' }, 'g.json'))[0]).toMatch(/^g\.json Unrecognized key/)
    expect(issuesOf(() => parseGradingConfig({ levels: ['L1', 'L2'], descriptions: ['one'] }, 'g.json'))).toEqual([
      'g.json:descriptions descriptions must align with levels (2), got 1',
    ])
    expect(issuesOf(() => parseGradingConfig({ levels: ['L1', 'L1'] }, 'g.json'))).toEqual([
      'g.json:levels.1 duplicate level "L1"',
    ])
    expect(gradingRubric(parseGradingConfig({ levels: ['L1', 'L2'] }))).toEqual([
      ['L1', ''],
      ['L2', ''],
    ])
    expect(parseGradingConfig({ levels: ['L1'] }).gt_field).toBe('data_level')
  })

  it('a level map names levels of the standard, each name once (case and width folded)', () => {
    const levels = ['L1', 'L2']
    expect(parseGradingConfig({ levels, level_map: { Public: 'L1', Internal: 'L2' } }).level_map).toEqual({
      Public: 'L1',
      Internal: 'L2',
    })
    expect(
      issuesOf(() => parseGradingConfig({ levels, level_map: { Public: 'L1', PUBLIC: 'L2', Secret: 'L9' } }, 'g.json')),
    ).toEqual([
      'g.json:level_map.PUBLIC level name "PUBLIC" is empty or repeats',
      'g.json:level_map.Secret "L9" is not one of levels',
    ])
  })

  it('the task config needs unique non-empty metadata fields', () => {
    expect(parseTaskConfig({ metadata_fields: [' field_name '] })).toEqual({
      metadata_fields: ['field_name'],
      task_name: 'data_classification',
    })
    expect(issuesOf(() => parseTaskConfig({ metadata_fields: [] }, 't.json'))[0]).toMatch(/^t\.json:metadata_fields /)
    expect(issuesOf(() => parseTaskConfig({ metadata_fields: ['a', 'a'] }, 't.json'))).toEqual([
      't.json:metadata_fields.1 duplicate metadata field "a"',
    ])
  })
})
