/** @module envs/grading: what a grading episode counts as in eval summaries. */
import type { EpisodeOutcome } from '../../core/env/env-dataset.js'
import type { FinishedEpisode } from '../../core/registry/env-registry.js'

export function summarizeGradingEpisode(episode: FinishedEpisode): EpisodeOutcome {
  const outcome = episode.info.outcome
  const judged = outcome !== null && typeof outcome === 'object' && !Array.isArray(outcome) ? outcome : undefined
  return {
    rates: {
      correct: judged?.reward === 1,
      category_correct: judged?.category_correct === true,
      level_correct: judged?.level_correct === true,
      valid_answer: judged?.valid === true,
      truncated: episode.truncated,
    },
    values: {
      tool_calls: typeof episode.info.tool_calls === 'number' ? episode.info.tool_calls : 0,
    },
  }
}
