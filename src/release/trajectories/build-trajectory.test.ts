/**
 * Trajectories built through the grading env: the class rule matches Python's
 * `int(sha256(...).hexdigest(), 16) % 4` (values computed with CPython's hashlib), each class follows its
 * plan with arguments read from earlier results, every tool message is what a fresh env renders for the
 * same call, no_result never surfaces the answer, and the same source gives the same trajectory.
 */
import { describe, expect, it } from 'vitest'
import { demoGradingTask } from '../../envs/grading/demo/demo-task.js'
import { GradingEnv, type GradingObservation } from '../../envs/grading/grading-env.js'
import { resetOptionsFor, TrajectoryBuilder, type TrajectorySource } from './build-trajectory.js'
import { replayToolCalls } from './replay-tool-calls.js'
import { trajectoryClassByBigInt, trajectoryClassOf } from './trajectory-class.js'

const task = demoGradingTask()
const builder = new TrajectoryBuilder(task)
const metadata = {
  field_name: 'surface_defect_code',
  table_name: 'qm_judge_result',
  field_description: '表面缺陷代码',
  table_description: '质量判定结果',
}
const source = (sourceId: string): TrajectorySource => ({ sourceId, metadata, groundTruth: 'C1-1', groundTruthLevel: 'L2' })

describe('trajectory classes', () => {
  it('match CPython: int(sha256("tool-trajectory:"+id).hexdigest(), 16) % 4', () => {
    const python: Record<string, string> = {
      a: 'multi_tool',
      c: 'no_result',
      d: 'single_tool',
      n: 'direct',
      'rec-0001': 'multi_tool',
      'rec-0003': 'no_result',
      '9f1c2d3e-0000-5000-8000-000000000000': 'multi_tool',
      '字段-1': 'no_result',
    }
    for (const [id, expected] of Object.entries(python)) expect(trajectoryClassOf(id)).toBe(expected)
  })

  it('the last-hex-digit shortcut equals the BigInt rule on many ids', () => {
    for (let index = 0; index < 5000; index++) {
      const id = `record-${index}-${(index * 7919).toString(36)}`
      expect(trajectoryClassOf(id)).toBe(trajectoryClassByBigInt(id))
    }
  })
})

describe('built trajectories', () => {
  const replayedByFreshEnv = (trajectory: ReturnType<TrajectoryBuilder['build']>) => {
    const env = new GradingEnv({ task })
    env.reset({ options: resetOptionsFor(trajectory) })
    return trajectory.calls.map((call) =>
      env.render(env.step({ name: call.name, arguments: call.arguments }).observation as GradingObservation),
    )
  }
  const answerChoice = task.choices.byCategory('C1-1').choiceId

  it('direct answers at once with the terminal JSON', () => {
    const trajectory = builder.build(source('n'))
    expect(trajectory.trajectoryClass).toBe('direct')
    expect(trajectory.calls).toEqual([])
    expect(trajectory.terminalJson).toBe(`{"answer": "${answerChoice}", "level": "L2"}`)
    expect(trajectory.user).toContain('"field_name":"surface_defect_code"')
    expect(trajectory.system).not.toContain('C1-1')
  })

  it('single_tool searches with the record metadata; multi_tool reads details and examples of surfaced ids', () => {
    const single = builder.build(source('d'))
    expect(single.calls).toEqual([
      { name: 'search_categories', arguments: { field_name: 'surface_defect_code', table_name: 'qm_judge_result' } },
    ])
    const multi = builder.build(source('a'))
    const surfaced = (JSON.parse(multi.results[0] as string).candidates as { choice_id: string }[]).map(
      (candidate) => candidate.choice_id,
    )
    expect(multi.calls.map((call) => call.name)).toEqual(['search_categories', 'get_category_details', 'get_category_examples'])
    expect(multi.calls[1]?.arguments).toEqual({ choice_ids: surfaced.slice(0, 2) })
    expect(multi.calls[2]?.arguments).toEqual({ choice_ids: surfaced.slice(0, 1), limit: 2 })
    for (const trajectory of [single, multi]) expect(trajectory.results).toEqual(replayedByFreshEnv(trajectory))
    expect(multi.results[0]).toMatch(/^\{"candidates": \[\{"choice_id": "/)
  })

  it('no_result browses, then searches the smallest group without the answer, and never surfaces it', () => {
    const trajectory = builder.build(source('c'))
    expect(trajectory.calls.map((call) => call.name)).toEqual(['browse_categories', 'search_categories'])
    const groups = JSON.parse(trajectory.results[0] as string).groups as { scope_key: string; category_count: number }[]
    const answerScope = task.toolbox.scopeOfCategory('C1-1')
    const others = groups.filter((group) => group.scope_key !== answerScope)
    const smallest = Math.min(...others.map((group) => group.category_count))
    expect(trajectory.calls[1]?.arguments.scope).toBe(others.find((group) => group.category_count === smallest)?.scope_key)
    const found = (JSON.parse(trajectory.results[1] as string).candidates as { choice_id: string }[]).map(
      (candidate) => candidate.choice_id,
    )
    expect(found).not.toContain(answerChoice)
    expect(trajectory.results).toEqual(replayedByFreshEnv(trajectory))
  })

  it('is deterministic, and the replay check accepts exactly what the builder made', () => {
    for (const id of ['n', 'd', 'a', 'c']) {
      const trajectory = builder.build(source(id))
      expect(builder.build(source(id))).toEqual(trajectory)
      const env = new GradingEnv({ task })
      env.reset({ options: resetOptionsFor(trajectory) })
      const calls = trajectory.calls.map((call, index) => ({ ...call, content: trajectory.results[index] as string }))
      const replay = {
        env,
        trajectoryClass: trajectory.trajectoryClass,
        metadata,
        answerChoiceId: answerChoice,
        answerScope: task.toolbox.scopeOfCategory('C1-1'),
        calls,
      }
      expect(replayToolCalls(replay)).toEqual([])
      if (calls.length > 0) {
        env.reset({ options: resetOptionsFor(trajectory) })
        const edited = calls.map((call, index) => (index === 0 ? { ...call, content: `${call.content} ` } : call))
        expect(replayToolCalls({ ...replay, calls: edited })).toEqual([
          `tool message 0 differs from the env's result for ${calls[0]?.name}`,
        ])
      }
    }
  })
})
