import { describe, expect, it } from 'vitest'
import { splitLengthGroups } from './run-trajectory-stats.js'

const lengths = () => ({
  direct: { chars: [10, 30], tokens: [3, 9] },
  single_tool: { chars: [50], tokens: [12] },
  multi_tool: { chars: [], tokens: [] },
  no_result: { chars: [20], tokens: [5] },
})

describe('splitLengthGroups', () => {
  it('groups each class and all rows of a split', () => {
    const groups = splitLengthGroups(lengths(), undefined)
    expect(Object.keys(groups.by_class)).toEqual(['direct', 'single_tool', 'multi_tool', 'no_result'])
    expect(groups.all.rows).toBe(4)
    expect(groups.by_class.direct.rows).toBe(2)
    expect(groups.by_class.multi_tool.rows).toBe(0)
    expect(groups.all.tokens.max).toBe(12)
    expect(groups.all).not.toHaveProperty('over_max_length')
  })

  it('counts the rows over the maximum length and their share when one is given', () => {
    const groups = splitLengthGroups(lengths(), 8)
    expect(groups.all.over_max_length).toEqual({ rows: 2, share: 0.5 })
    expect(groups.by_class.multi_tool.over_max_length).toEqual({ rows: 0, share: 0 })
  })
})
