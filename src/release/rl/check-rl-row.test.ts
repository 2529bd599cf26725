import { describe, expect, it } from 'vitest'
import { demoEpisodeSources, demoGradingTask } from '../../envs/grading/demo/demo-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import type { RecordRowInput } from '../planning/record-plan.js'
import { checkLegacyRow } from '../sft/validate-legacy-rows.js'
import { RlRowBuilder } from './build-rl-rows.js'
import { checkRlRow, rlRowContext } from './check-rl-row.js'

const task = demoGradingTask()
const source = demoEpisodeSources()[0] as ReturnType<typeof demoEpisodeSources>[number]
const input: RecordRowInput = {
  id: source.sourceId,
  metadata: source.metadata as Record<string, string>,
  groundTruth: source.groundTruth,
  level: source.groundTruthLevel,
}
const dataset = 'steel_demo'
const builder = new RlRowBuilder({ dataset, task })
const context = rlRowContext({ dataset, task })
const plain = (value: unknown) => structuredClone(value) as Record<string, unknown>

describe('checkRlRow: coded issues', () => {
  it('passes the rows the builder makes', () => {
    expect(checkRlRow(plain(builder.stage1(input)), context)).toEqual([])
    expect(checkRlRow(plain(builder.stage2(input)), context)).toEqual([])
  })

  it('names each problem with a stable code, the field path and the old message', () => {
    const row = plain(builder.stage1(input))
    row.ability = 'another task'
    ;(row.reward_model as Record<string, unknown>).style = 'model'
    expect(checkRlRow(row, context)).toEqual([
      { code: 'rl_reward_model', path: 'reward_model.style', message: "reward_model.style must be 'rule'" },
      {
        code: 'rl_ability',
        path: 'ability',
        message: `ability must be the task name ${JSON.stringify(task.taskConfig.task_name)}`,
      },
    ])
  })

  it('codes a rebuilt-prompt mismatch and a column-set problem', () => {
    const row = plain(builder.stage1(input))
    ;(row.prompt as { content: string }[])[1] = { role: 'user', content: 'something else' } as never
    expect(checkRlRow(row, context).map((issue) => [issue.code, issue.path])).toEqual([['rl_prompt_mismatch', 'prompt']])
    const { ability: _, ...short } = plain(builder.stage1(input))
    const [issue] = checkRlRow(short, context)
    expect(issue?.code).toBe('rl_columns')
    expect(issue?.message).toMatch(/^row must hold exactly the columns/)
  })

  it('refuses stage2 rows where only stage1 is allowed', () => {
    const cascade = rlRowContext({ dataset, task, stages: ['stage1'] })
    expect(checkRlRow(plain(builder.stage2(input)), cascade)).toContainEqual({
      code: 'rl_stage',
      path: 'extra_info.stage',
      message: 'stage2 rows are not allowed in this release',
    })
  })
})

describe('checkLegacyRow: coded issues', () => {
  const legacy = new LegacyPromptBuilder(task)
  const fields = task.taskConfig.metadata_fields
  const texts = legacy.build({ sourceId: input.id, metadata: input.metadata, groundTruth: input.groundTruth, level: input.level })
  const row = (stage: 'stage1' | 'stage2') => ({
    messages: texts[stage].map((content, index) => ({ role: ['system', 'user', 'assistant'][index], content })),
    stage,
    source_id: input.id,
    ground_truth: input.groundTruth,
    ground_truth_level: input.level,
    metadata: { ...input.metadata },
    candidates: [...texts.candidates],
  })
  const sftContext = { task, builder: legacy, fields }

  it('passes both stages of a record', () => {
    expect(checkLegacyRow(row('stage1'), sftContext)).toEqual([])
    expect(checkLegacyRow(row('stage2'), sftContext)).toEqual([])
  })

  it('codes a wrong level and a wrong answer', () => {
    const bad = row('stage2')
    bad.ground_truth_level = 'not a level'
    expect(checkLegacyRow(bad, sftContext)).toEqual([
      { code: 'sft_level', path: 'ground_truth_level', message: 'ground_truth_level is not an approved level' },
    ])
    const answer = row('stage2')
    ;(answer.messages[2] as { content: string }).content = '{"answer": "9", "level": "x"}'
    const codes = checkLegacyRow(answer, sftContext)
    expect(codes.length).toBeGreaterThan(0)
    expect(codes.every((issue) => issue.code === 'sft_answer' && issue.path === 'messages[2].content')).toBe(true)
    expect(codes.map((issue) => issue.message)).toContain('assistant answer is not the canonical answer text')
  })
})
