/**
 * @module eval/gate: collapsed models for the rollout gate to refuse (decision 0064), as grading policies a
 * scripted model plays: the constant answer (the train split's majority leaf and level, with or without
 * searches first) and the random answer (a uniform choice and level per episode, seeded). Served by the
 * scripted OpenAI-compatible server, they answer in text as a model does.
 */
import { InternalInvariantError } from '../../core/errors/internal-invariant-error.js'
import { generatorPolicy, type Policy } from '../../core/policy/policy.js'
import type { PythonRandom } from '../../core/python/python-random.js'
import { finalResponseAction, type GradingObservation } from '../../envs/grading/grading-env.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { readPromptMetadata } from '../../envs/grading/policies/read-prompt-metadata.js'

/** The most common `(category, level)` of RL rows (ties: the smaller key), as the answer a constant model gives. */
export function majorityLabel(
  rows: readonly { reward_model: { ground_truth: string }; extra_info: { ground_truth_level: string } }[],
): {
  categoryId: string
  level: string
} {
  const counts = new Map<string, number>()
  for (const row of rows) {
    const key = `${row.reward_model.ground_truth}\u0000${row.extra_info.ground_truth_level}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const [best] = [...counts].sort((left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1))
  if (!best) throw new InternalInvariantError('majorityLabel needs at least one row')
  const [categoryId, level] = best[0].split('\u0000') as [string, string]
  return { categoryId, level }
}

/** The same answer to every row, after `searches` identical searches of the row's own field. */
export function constantAnswerPolicy(options: {
  task: GradingTask
  categoryId: string
  level: string
  searches?: number
}): Policy<GradingObservation> {
  const content = JSON.stringify({ answer: options.task.choices.byCategory(options.categoryId).choiceId, level: options.level })
  return generatorPolicy<GradingObservation>(`constant-${options.searches ?? 0}-searches`, function* (start) {
    const metadata = readPromptMetadata(start.observation)
    for (let search = 0; search < (options.searches ?? 0); search++)
      yield {
        name: 'search_categories',
        arguments: { field_name: metadata.field_name ?? '', table_name: metadata.table_name ?? '' },
      }
    yield { name: finalResponseAction, arguments: { content } }
  })
}

/** A uniform choice and level, drawn when the answer is given (one draw per episode, so samples differ). */
export function randomAnswerPolicy(options: { task: GradingTask; random: PythonRandom }): Policy<GradingObservation> {
  const choices = options.task.choices.choices
  const levels = options.task.grading.levels
  return generatorPolicy<GradingObservation>('random-answer', function* () {
    const answer = (choices[options.random.randbelow(choices.length)] as { choiceId: string }).choiceId
    const level = levels[options.random.randbelow(levels.length)] as string
    yield { name: finalResponseAction, arguments: { content: JSON.stringify({ answer, level }) } }
  })
}
