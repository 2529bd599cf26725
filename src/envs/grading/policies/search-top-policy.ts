/**
 * @module envs/grading: the lexical baseline: one `search_categories` call, then answer the first
 * candidate with the middle level of the rubric. It shows how far name matching alone gets.
 */
import { generatorPolicy, type Policy } from '../../../core/policy/policy.js'
import { finalResponseAction, type GradingObservation } from '../grading-env.js'
import { readPromptMetadata } from './read-prompt-metadata.js'

export function searchTopPolicy(levels: readonly string[]): Policy<GradingObservation> {
  const level = levels[Math.floor((levels.length - 1) / 2)] ?? ''
  return generatorPolicy<GradingObservation>('search-top1', function* (start) {
    const metadata = readPromptMetadata(start.observation)
    const result = yield {
      name: 'search_categories',
      arguments: { field_name: metadata.field_name ?? '', table_name: metadata.table_name ?? '' },
    }
    const candidates = (result.result?.candidates ?? []) as { choice_id: string }[]
    const answer = candidates[0]?.choice_id ?? '1'
    yield { name: finalResponseAction, arguments: { content: JSON.stringify({ answer, level }) } }
  })
}
