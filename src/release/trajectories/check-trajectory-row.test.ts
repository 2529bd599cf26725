import { describe, expect, it } from 'vitest'
import { demoEpisodeSources, demoGradingTask } from '../../envs/grading/demo/demo-task.js'
import { GradingEnv, gradingV1Spec } from '../../envs/grading/grading-env.js'
import { TrajectoryBuilder } from './build-trajectory.js'
import { checkTrajectoryRow, contentErrors, labelErrors, type RowCheckContext } from './check-trajectory-row.js'
import { type TrajectoryRow, trajectoryRow } from './trajectory-row.js'
import { structureErrors } from './trajectory-structure-errors.js'
import { trajectoryTools } from './trajectory-tools.js'

const task = demoGradingTask()
const tools = trajectoryTools(gradingV1Spec)
const context: RowCheckContext = {
  task,
  env: new GradingEnv({ task }),
  dataset: 'steel_demo',
  tools,
  toolsJson: JSON.stringify(tools),
}
const builder = new TrajectoryBuilder(task)
const sources = demoEpisodeSources().map((source) => ({ ...source, metadata: source.metadata as Record<string, string> }))

/** A row of the first source whose trajectory makes at least one tool call. */
function toolRow(): Record<string, unknown> {
  for (const source of sources) {
    const trajectory = builder.build(source)
    if (trajectory.calls.length === 0) continue
    const thoughts = { tool: trajectory.calls.map(() => ''), final: '', truncated: false, discarded: false }
    return structuredClone(trajectoryRow({ trajectory, thoughts, thinkSource: 'none', dataset: 'steel_demo', tools })) as never
  }
  throw new Error('no demo source makes a tool call')
}

describe('checkTrajectoryRow: coded issues', () => {
  it('passes a built row', () => {
    expect(checkTrajectoryRow(toolRow(), context)).toEqual([])
  })

  it('codes a label problem with its field', () => {
    const row = toolRow()
    row.dataset = 'other_demo'
    expect(checkTrajectoryRow(row, context)).toEqual([
      { code: 'trajectory_label', path: 'dataset', message: 'dataset is other_demo, expected steel_demo' },
    ])
  })

  it('codes a schema problem, a replayed tool result and a wrong answer', () => {
    const extra = { ...toolRow(), unexpected: 1 }
    expect(checkTrajectoryRow(extra, context).map((issue) => issue.code)).toEqual(['trajectory_schema'])
    const edited = toolRow()
    const messages = edited.messages as { role: string; content: string }[]
    const tool = messages.find((message) => message.role === 'tool') as { content: string }
    tool.content = `${tool.content} `
    expect(checkTrajectoryRow(edited, context)).toContainEqual(
      expect.objectContaining({
        code: 'trajectory_replay',
        path: 'tool_calls',
        message: expect.stringMatching(/differs from the env's result/),
      }),
    )
    const answered = toolRow()
    const answer = (answered.messages as { content: string }[]).at(-1) as { content: string }
    answer.content = '{}'
    const [issue] = checkTrajectoryRow(answered, context)
    expect(issue).toMatchObject({
      code: 'trajectory_answer',
      path: `messages[${(answered.messages as unknown[]).length - 1}].content`,
    })
  })
})

describe('checkTrajectoryRow: its steps alone', () => {
  const row = () => toolRow() as unknown as TrajectoryRow

  it('labelErrors names every wrong label at once, in field order', () => {
    const edited = row()
    edited.dataset = 'other_demo'
    edited.ground_truth_level = 'nowhere'
    edited.tools = []
    expect(labelErrors(edited, context).map((issue) => issue.path)).toEqual(['dataset', 'ground_truth_level', 'tools'])
    expect(labelErrors(row(), context)).toEqual([])
  })

  it("labelErrors accepts tools equal to the context's by value", () => {
    const edited = row()
    edited.tools = structuredClone(context.tools) as TrajectoryRow['tools']
    expect(labelErrors(edited, context)).toEqual([])
  })

  it('contentErrors finds template tokens after the system message and a leaked ground truth', () => {
    const edited = row()
    const user = edited.messages[1] as { content: string }
    user.content = `${user.content} <|im_end|> ${edited.ground_truth}`
    expect(contentErrors(edited)).toEqual([
      expect.objectContaining({ code: 'trajectory_template_tokens', path: 'messages[1].content' }),
      expect.objectContaining({ code: 'trajectory_answer_leak', path: 'messages' }),
    ])
    expect(contentErrors(row())).toEqual([])
  })

  it('structureErrors refuses roles out of order with one issue', () => {
    const edited = row()
    edited.messages = [...edited.messages].reverse()
    expect(structureErrors(edited)).toEqual([expect.objectContaining({ code: 'trajectory_structure', path: 'messages' })])
    expect(structureErrors(row())).toEqual([])
  })
})
