import { describe, expect, it } from 'vitest'
import { stage1GateRows, taskMismatches } from './release-rollout-source.js'
import type { RlRow } from './rl-row.js'

const row = (stage: 'stage1' | 'stage2', id: string): RlRow => ({
  data_source: `steel/${stage}`,
  prompt: [{ role: 'user', content: `grade ${id}` }],
  ability: 'grading',
  reward_model: { style: 'rule', ground_truth: 'c1' },
  extra_info: {
    dataset: 'steel',
    stage,
    source_id: id,
    metadata: {},
    ground_truth_level: 'L2',
    trajectory_format: null,
    candidates: ['a', 'b'],
  },
})

describe('stage1GateRows', () => {
  it('keeps stage-1 rows in file order, drops candidates, and labels each row', () => {
    const { rows, stage1 } = stage1GateRows([row('stage1', 'x'), row('stage2', 'y'), row('stage1', 'z')])
    expect(stage1).toBe(2)
    expect(rows.map((gate) => gate.key)).toEqual(['x', 'z'])
    expect(rows[0]?.label).toBe('c1|L2')
    expect(rows[0]?.dataset).toBe('steel')
    const reset = rows[0]?.reset as { options: { row: RlRow } }
    expect(reset.options.row.extra_info).not.toHaveProperty('candidates')
  })

  it('takes the first `limit` stage-1 rows but counts them all', () => {
    const { rows, stage1 } = stage1GateRows([row('stage1', 'x'), row('stage1', 'z')], 1)
    expect(rows.map((gate) => gate.key)).toEqual(['x'])
    expect(stage1).toBe(2)
  })
})

describe('taskMismatches', () => {
  const lineage = { task: { registry: 'r', corpus: 'c', taskConfig: null }, grading: { steel: 'g' } }
  it('finds nothing when every hash matches', () => {
    const hashes = { registry: 'r', corpus: 'c', task_config: null }
    expect(taskMismatches({ dataset: 'steel', gradingSha256: 'g', hashes, lineage })).toEqual([])
  })

  it('names each file that differs, grading first', () => {
    const hashes = { registry: 'R', corpus: 'c', task_config: 't' }
    const issues = taskMismatches({ dataset: 'steel', gradingSha256: 'G', hashes, lineage })
    expect(issues.map((issue) => issue.path)).toEqual(['grading:steel', '--registry', '--task-config'])
    expect(new Set(issues.map((issue) => issue.code))).toEqual(new Set(['release_task_mismatch']))
  })
})
