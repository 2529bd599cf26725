/**
 * @module release/trajectories: a trajectory row's message structure: the roles in order for its class,
 * one tool call per tool turn with the expected id, each tool message answering its call, the
 * `tool_calls` column repeating the calls, and no tool calls on the answer turn.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import { jsonEqual } from './json-equal.js'
import { toolCallsPerClass } from './trajectory-class.js'
import { type TrajectoryMessage, type TrajectoryRow, toolCallId } from './trajectory-row.js'

const structure = (path: string, message: string): InputIssue => ({ code: 'trajectory_structure', path, message })

export function structureErrors(row: TrajectoryRow): InputIssue[] {
  const errors: InputIssue[] = []
  const messages = row.messages
  const calls = toolCallsPerClass[row.trajectory_class]
  let rolesOk = messages.length === 3 + 2 * calls
  for (let index = 0; rolesOk && index < messages.length; index++) {
    const expected =
      index === 0 ? 'system' : index === 1 ? 'user' : index % 2 === 0 || index === messages.length - 1 ? 'assistant' : 'tool'
    rolesOk = (messages[index] as TrajectoryMessage).role === expected
  }
  if (!rolesOk) {
    const expectedRoles = ['system', 'user', ...Array.from({ length: calls }, () => ['assistant', 'tool']).flat(), 'assistant']
    return [
      {
        code: 'trajectory_structure',
        path: 'messages',
        message: `message roles are [${messages.map((message) => message.role).join(', ')}], expected [${expectedRoles.join(', ')}]`,
      },
    ]
  }
  for (let turn = 0; turn < calls; turn++) {
    const assistant = messages[2 + turn * 2] as Extract<TrajectoryMessage, { role: 'assistant' }>
    const tool = messages[3 + turn * 2] as Extract<TrajectoryMessage, { role: 'tool' }>
    const call = assistant.tool_calls?.[0]
    if (!call || assistant.tool_calls?.length !== 1) {
      errors.push(structure(`messages[${2 + turn * 2}]`, `message ${2 + turn * 2} must carry exactly one tool call`))
      continue
    }
    if (assistant.content !== '')
      errors.push(structure(`messages[${2 + turn * 2}]`, `message ${2 + turn * 2}: a tool-call turn has empty content`))
    if (call.id !== toolCallId(turn))
      errors.push(
        structure(`messages[${2 + turn * 2}]`, `message ${2 + turn * 2}: tool call id ${call.id} is not ${toolCallId(turn)}`),
      )
    if (tool.tool_call_id !== call.id)
      errors.push(
        structure(
          `messages[${3 + turn * 2}]`,
          `message ${3 + turn * 2}: tool_call_id ${tool.tool_call_id} does not answer ${call.id}`,
        ),
      )
    if (tool.name !== call.function.name)
      errors.push(
        structure(`messages[${3 + turn * 2}]`, `message ${3 + turn * 2}: tool name ${tool.name} is not ${call.function.name}`),
      )
    const column = row.tool_calls[turn]
    if (!column || column.name !== call.function.name || !jsonEqual(column.arguments, call.function.arguments))
      errors.push(structure(`tool_calls[${turn}]`, `tool_calls[${turn}] does not repeat the call in message ${2 + turn * 2}`))
  }
  if (row.tool_calls.length !== calls)
    errors.push(structure('tool_calls', `tool_calls holds ${row.tool_calls.length} calls, the messages ${calls}`))
  const last = messages.at(-1) as Extract<TrajectoryMessage, { role: 'assistant' }>
  if (last.tool_calls !== undefined)
    errors.push(structure(`messages[${messages.length - 1}]`, 'the answer turn carries tool calls'))
  return errors
}
