/**
 * @module release/trajectories: one Parquet row of a trajectory release, as a zod schema (the single
 * source of the row's type, its exact-schema check and, through JSON Schema, its Parquet columns).
 *
 * `messages` are OpenAI messages with structured `tool_calls` (arguments as objects) and a
 * `reasoning_content` slot on every assistant turn, so VeRL's multi-turn SFT dataset renders them with the
 * model's own chat template exactly as RL rollouts are rendered; `tools` holds the tools' JSON schemas and
 * `enable_thinking` the thinking flag VeRL passes to the template. The rest is provenance and labels.
 */
import { z } from 'zod'
import type { ChatTool } from '../../chat/chat-message.js'
import type { JsonObject } from '../../core/json/json-value.js'
import type { Trajectory } from './build-trajectory.js'
import { trajectoryClasses } from './trajectory-class.js'
import { type ThinkSourceKind, thinkSourceKinds, trajectoryFormat, trajectoryStage } from './trajectory-format.js'

/**
 * Tool-call arguments: an object here; the env checks them when `validate` re-executes the call. Their
 * Parquet struct (and the `tools` column's) comes from the tools' own schemas, not from this one.
 */
const argumentsSchema = z.record(z.string(), z.unknown())

const trajectoryToolCallSchema = z.strictObject({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.strictObject({ name: z.string().min(1), arguments: argumentsSchema }),
})

const trajectoryMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: z.string() }),
  z.strictObject({ role: z.literal('user'), content: z.string() }),
  z.strictObject({
    role: z.literal('assistant'),
    content: z.string(),
    reasoning_content: z.string(),
    tool_calls: z.array(trajectoryToolCallSchema).optional(),
  }),
  z.strictObject({ role: z.literal('tool'), content: z.string(), tool_call_id: z.string().min(1), name: z.string().min(1) }),
])

export const trajectoryRowSchema = z.strictObject({
  messages: z.array(trajectoryMessageSchema).min(3),
  /** The tools' OpenAI entries (`{type, function: {name, description, parameters}}`), the same in every row. */
  tools: z.array(z.record(z.string(), z.unknown())),
  enable_thinking: z.boolean(),
  stage: z.literal(trajectoryStage),
  trajectory_class: z.enum(trajectoryClasses),
  trajectory_format: z.literal(trajectoryFormat),
  source_id: z.string().min(1),
  dataset: z.string().min(1),
  /** The task config's metadata fields, in order, as prompt text. */
  metadata: z.record(z.string(), z.string()),
  /** Canonical category id (never shown to the model). */
  ground_truth: z.string().min(1),
  ground_truth_level: z.string().min(1),
  tool_calls: z.array(z.strictObject({ name: z.string().min(1), arguments: argumentsSchema })),
  think_source: z.enum(thinkSourceKinds),
  /** Some thought of the row was cut to the token limit. */
  think_truncated: z.boolean(),
  /** Some thought of the row was over the limit and dropped (its reasoning is empty). */
  think_discarded: z.boolean(),
})

export type TrajectoryRow = z.output<typeof trajectoryRowSchema>
export type TrajectoryMessage = z.output<typeof trajectoryMessageSchema>

/** The thoughts of one row: one per tool-call turn, in order, and one for the answer turn. */
export interface RowThoughts {
  tool: readonly string[]
  final: string
  truncated: boolean
  discarded: boolean
}

export const toolCallId = (turn: number) => `call_${turn}_0`

/** The conversation: system, user, (assistant with one tool call, tool result) per call, answer. */
function trajectoryMessages(trajectory: Trajectory, thoughts: RowThoughts): TrajectoryMessage[] {
  const messages: TrajectoryMessage[] = [
    { role: 'system', content: trajectory.system },
    { role: 'user', content: trajectory.user },
  ]
  trajectory.calls.forEach((call, turn) => {
    const id = toolCallId(turn)
    messages.push(
      {
        role: 'assistant',
        content: '',
        reasoning_content: thoughts.tool[turn] ?? '',
        tool_calls: [{ id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
      },
      { role: 'tool', content: trajectory.results[turn] as string, tool_call_id: id, name: call.name },
    )
  })
  messages.push({ role: 'assistant', content: trajectory.terminalJson, reasoning_content: thoughts.final })
  return messages
}

export function trajectoryRow(options: {
  trajectory: Trajectory
  thoughts: RowThoughts
  thinkSource: ThinkSourceKind
  dataset: string
  tools: readonly ChatTool[]
}): TrajectoryRow {
  const { trajectory, thoughts } = options
  return {
    messages: trajectoryMessages(trajectory, thoughts),
    tools: options.tools as unknown as JsonObject[],
    enable_thinking: options.thinkSource !== 'none',
    stage: trajectoryStage,
    trajectory_class: trajectory.trajectoryClass,
    trajectory_format: trajectoryFormat,
    source_id: trajectory.sourceId,
    dataset: options.dataset,
    metadata: { ...trajectory.metadata },
    ground_truth: trajectory.groundTruth,
    ground_truth_level: trajectory.groundTruthLevel,
    tool_calls: trajectory.calls.map((call) => ({ name: call.name, arguments: call.arguments })),
    think_source: options.thinkSource,
    think_truncated: thoughts.truncated,
    think_discarded: thoughts.discarded,
  }
}
