/**
 * @module release/trajectories: one record → one deterministic native-tool trajectory, produced by really
 * calling the grading env: reset with the record, run the class's plan one tool call at a time (later
 * arguments read from earlier results), record each tool message exactly as the env renders it, and end
 * with the terminal JSON answer, which the env must reward 1.0.
 *
 * Plans (the original's): direct = answer at once; single_tool = search; multi_tool = search → details of
 * the first two surfaced ids → examples of the first one (limit 2); no_result = browse → search scoped to
 * the smallest top-level group that does not hold the answer, then answer from the catalog anyway.
 */

import type { ErrorCode } from '../../core/errors/error-code.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { JsonObject } from '../../core/json/json-value.js'
import { pythonDumpsUnicode } from '../../core/python/python-json.js'
import { finalResponseAction, GradingEnv, type GradingObservation } from '../../envs/grading/grading-env.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { type TrajectoryClass, trajectoryClassOf } from './trajectory-class.js'

/** What a trajectory is about: a resolved record's id, its prompt metadata (task fields, as text) and labels. */
export interface TrajectorySource {
  sourceId: string
  metadata: Readonly<Record<string, string>>
  groundTruth: string
  groundTruthLevel: string
}

export interface TrajectoryCall {
  name: string
  arguments: JsonObject
}

/** A think-free trajectory: the prompt, the calls with the env's tool messages, and the answer. */
export interface Trajectory extends TrajectorySource {
  trajectoryClass: TrajectoryClass
  system: string
  user: string
  calls: TrajectoryCall[]
  /** The tool message of each call, as the env renders it (`json.dumps(result, ensure_ascii=False)`). */
  results: string[]
  /** `json.dumps({"answer": <choice_id>, "level": <level>}, ensure_ascii=False)`. */
  terminalJson: string
}

/** The reset options that make the env play `source` (the RL-row form: no canonical record needed). */
export function resetOptionsFor(source: TrajectorySource): Record<string, unknown> {
  return {
    row: {
      reward_model: { ground_truth: source.groundTruth },
      extra_info: { source_id: source.sourceId, metadata: source.metadata, ground_truth_level: source.groundTruthLevel },
    },
  }
}

export function terminalAnswerJson(choiceId: string, level: string): string {
  return pythonDumpsUnicode({ answer: choiceId, level })
}

function internalError(code: ErrorCode, source: TrajectorySource, message: string): ReleaseOpsError {
  return new ReleaseOpsError({ code, path: `source_id=${source.sourceId}`, message })
}

export class TrajectoryBuilder {
  private readonly env: GradingEnv

  constructor(readonly task: GradingTask) {
    this.env = new GradingEnv({ task })
  }

  build(source: TrajectorySource): Trajectory {
    const env = this.env
    const reset = env.reset({ options: resetOptionsFor(source) })
    const [system, user] = reset.observation.messages as { role: string; content: string }[]
    const trajectoryClass = trajectoryClassOf(source.sourceId)
    const calls: TrajectoryCall[] = []
    const results: string[] = []
    const call = (name: string, args: JsonObject): JsonObject => {
      const step = env.step({ name, arguments: args })
      const observation = step.observation as GradingObservation
      if (observation.error || !observation.result) {
        throw internalError(
          'trajectory_tool_error',
          source,
          `The grading env rejected the planned ${name} call: ${observation.error?.code}: ${observation.error?.message}`,
        )
      }
      calls.push({ name, arguments: args })
      results.push(env.render(observation))
      return observation.result
    }
    const search = { field_name: source.metadata.field_name ?? '', table_name: source.metadata.table_name ?? '' }
    if (trajectoryClass === 'single_tool') call('search_categories', search)
    else if (trajectoryClass === 'multi_tool') {
      const found = call('search_categories', search) as { candidates: { choice_id: string }[] }
      const surfaced = found.candidates.slice(0, 2).map((candidate) => candidate.choice_id)
      call('get_category_details', { choice_ids: surfaced })
      call('get_category_examples', { choice_ids: surfaced.slice(0, 1), limit: 2 })
    } else if (trajectoryClass === 'no_result') {
      const browsed = call('browse_categories', {}) as { groups: { scope_key: string; category_count: number }[] }
      const scope = missScope(browsed.groups, this.task.toolbox.scopeOfCategory(source.groundTruth))
      if (scope === undefined) {
        throw internalError(
          'no_result_impossible',
          source,
          'A no_result trajectory needs a top-level group without the answer, but the catalog has a single group.',
        )
      }
      call('search_categories', { ...search, scope })
    }
    const choiceId = this.task.choices.byCategory(source.groundTruth).choiceId
    const terminalJson = terminalAnswerJson(choiceId, source.groundTruthLevel)
    const final = env.step({ name: finalResponseAction, arguments: { content: terminalJson } })
    if (final.reward !== 1 || !final.terminated) {
      throw internalError(
        'trajectory_not_rewarded',
        source,
        `The env scored the terminal answer ${terminalJson} ${final.reward}, not 1.`,
      )
    }
    return {
      ...source,
      trajectoryClass,
      system: system?.content ?? '',
      user: user?.content ?? '',
      calls,
      results,
      terminalJson,
    }
  }
}

/** The smallest group that is not the answer's (ties: browse order); undefined when there is none. */
export function missScope(
  groups: readonly { scope_key: string; category_count: number }[],
  answerScope: string,
): string | undefined {
  let best: { scope_key: string; category_count: number } | undefined
  for (const group of groups) {
    if (group.scope_key === answerScope) continue
    if (!best || group.category_count < best.category_count) best = group
  }
  return best?.scope_key
}
