/**
 * @module release/trajectories: re-executes a row's recorded tool calls against the grading env and
 * checks what a trajectory may do: the class's plan (tool names, then the exact arguments the plan
 * derives from earlier results), search arguments equal to the row's metadata, detail/example ids taken
 * from earlier results, tool messages byte-identical to the env's, and a no_result trajectory that never
 * surfaces the answer. Problems come back as reasons; nothing throws.
 */
import type { JsonObject } from '../../core/json/json-value.js'
import type { GradingEnv, GradingObservation } from '../../envs/grading/grading-env.js'
import { missScope } from './build-trajectory.js'
import { jsonEqual } from './json-equal.js'
import type { TrajectoryClass } from './trajectory-class.js'

const classPlans: Readonly<Record<TrajectoryClass, readonly string[]>> = {
  direct: [],
  single_tool: ['search_categories'],
  multi_tool: ['search_categories', 'get_category_details', 'get_category_examples'],
  no_result: ['browse_categories', 'search_categories'],
}

export interface ReplayedCall {
  name: string
  arguments: JsonObject
  /** The tool message recorded in the row. */
  content: string
}

function surfacedIds(result: JsonObject | undefined): string[] {
  const entries = (result?.candidates ?? result?.categories) as { choice_id?: unknown }[] | undefined
  return Array.isArray(entries) ? entries.map((entry) => String(entry.choice_id)) : []
}

/** Reasons the calls are not what `trajectoryClass` produces for this record (empty when they are). */
export function replayToolCalls(options: {
  env: GradingEnv
  trajectoryClass: TrajectoryClass
  metadata: Readonly<Record<string, string>>
  answerChoiceId: string
  answerScope: string
  calls: readonly ReplayedCall[]
}): string[] {
  const { env, calls } = options
  const plan = classPlans[options.trajectoryClass]
  const names = calls.map((call) => call.name)
  if (names.join(',') !== plan.join(',')) {
    return [`tool calls are [${names.join(', ')}], but a ${options.trajectoryClass} trajectory makes [${plan.join(', ')}]`]
  }
  const errors: string[] = []
  const surfaced = new Set<string>()
  const results: (JsonObject | undefined)[] = []
  calls.forEach((call, index) => {
    const label = `tool call ${index} (${call.name})`
    const args = call.arguments
    if (call.name === 'search_categories') {
      if (args.field_name !== options.metadata.field_name || args.table_name !== options.metadata.table_name)
        errors.push(
          `${label}: search arguments ${JSON.stringify([args.field_name, args.table_name])} are not the record's field_name and table_name`,
        )
    } else if (call.name === 'get_category_details' || call.name === 'get_category_examples') {
      const ids = Array.isArray(args.choice_ids) ? args.choice_ids.map(String) : []
      const unseen = ids.filter((id) => !surfaced.has(id))
      if (unseen.length > 0) errors.push(`${label}: choice ids ${unseen.join(', ')} did not come from an earlier tool result`)
    }
    const step = env.step({ name: call.name, arguments: args })
    const observation = step.observation as GradingObservation
    if (observation.error) {
      errors.push(`${label} is rejected by the env: ${observation.error.code}: ${observation.error.message}`)
      results.push(undefined)
      return
    }
    const text = env.render(observation)
    if (text !== call.content) errors.push(`tool message ${index} differs from the env's result for ${call.name}`)
    results.push(observation.result)
    for (const id of surfacedIds(observation.result)) surfaced.add(id)
  })
  if (options.trajectoryClass === 'no_result' && surfaced.has(options.answerChoiceId))
    errors.push(`a no_result trajectory surfaces the answer (choice ${options.answerChoiceId}) in a tool result`)
  if (errors.length > 0) return errors
  const expected = plannedArguments(options, results)
  calls.forEach((call, index) => {
    if (!jsonEqual(call.arguments, expected[index]))
      errors.push(
        `tool call ${index} (${call.name}): arguments ${JSON.stringify(call.arguments)} are not the plan's ${JSON.stringify(expected[index])}`,
      )
  })
  return errors
}

/** The arguments the class's plan gives, reading later ones from the replayed results. */
function plannedArguments(
  options: { trajectoryClass: TrajectoryClass; metadata: Readonly<Record<string, string>>; answerScope: string },
  results: readonly (JsonObject | undefined)[],
): JsonObject[] {
  const search = { field_name: options.metadata.field_name ?? '', table_name: options.metadata.table_name ?? '' }
  switch (options.trajectoryClass) {
    case 'single_tool':
      return [search]
    case 'multi_tool': {
      const ids = surfacedIds(results[0]).slice(0, 2)
      return [search, { choice_ids: ids }, { choice_ids: ids.slice(0, 1), limit: 2 }]
    }
    case 'no_result': {
      const groups = (results[0]?.groups ?? []) as { scope_key: string; category_count: number }[]
      return [{}, { ...search, scope: missScope(groups, options.answerScope) ?? '' }]
    }
    default:
      return []
  }
}
