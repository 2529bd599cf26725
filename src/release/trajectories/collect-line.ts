/**
 * @module release/trajectories: one line of a collect shard, the hand-off to an external reasoning
 * writer: a trajectory's whole context without thoughts, plus the empty slots to fill (`think` for the
 * answer turn, `tool_think` one per tool-call turn, in order). A filled line is what
 * `export --think-source file:` reads back.
 */
import { z } from 'zod'
import { splitNames } from '../contracts/canonical-record.js'
import type { Trajectory } from './build-trajectory.js'
import { trajectoryClasses } from './trajectory-class.js'

const collectLineSchema = z.strictObject({
  sample_id: z.string().min(1),
  split: z.enum(splitNames),
  trajectory_class: z.enum(trajectoryClasses),
  prompt: z.strictObject({ system: z.string(), user: z.string() }),
  tool_calls: z.array(z.strictObject({ name: z.string(), arguments: z.record(z.string(), z.json()) })),
  tool_results: z.array(z.string()),
  ground_truth: z.string(),
  ground_truth_level: z.string(),
  terminal_json: z.string(),
  think: z.string(),
  tool_think: z.array(z.string()),
})

export type CollectLine = z.output<typeof collectLineSchema>

/** The context keys a filled line may repeat; when present they must equal the re-derived trajectory's. */
export const collectContextKeys = [
  'split',
  'trajectory_class',
  'prompt',
  'tool_calls',
  'tool_results',
  'ground_truth',
  'ground_truth_level',
  'terminal_json',
] as const

export function collectLine(trajectory: Trajectory, split: CollectLine['split']): CollectLine {
  return {
    sample_id: trajectory.sourceId,
    split,
    trajectory_class: trajectory.trajectoryClass,
    prompt: { system: trajectory.system, user: trajectory.user },
    tool_calls: trajectory.calls.map((call) => ({ name: call.name, arguments: call.arguments })),
    tool_results: [...trajectory.results],
    ground_truth: trajectory.groundTruth,
    ground_truth_level: trajectory.groundTruthLevel,
    terminal_json: trajectory.terminalJson,
    think: '',
    tool_think: trajectory.calls.map(() => ''),
  }
}
