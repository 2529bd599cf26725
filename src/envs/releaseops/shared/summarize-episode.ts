/** @module envs/releaseops: what an Arena episode counts as in eval summaries (the original's `summarize_rollout`). */
import type { EpisodeOutcome } from '../../../core/env/env-dataset.js'
import type { FinishedEpisode } from '../../../core/registry/env-registry.js'

function metric(info: FinishedEpisode['info'], key: string): number {
  const metrics = info.metrics
  if (metrics && typeof metrics === 'object' && !Array.isArray(metrics)) {
    const value = metrics[key]
    if (typeof value === 'number') return value
  }
  return 0
}

export function summarizeReleaseOpsEpisode(episode: FinishedEpisode): EpisodeOutcome {
  const reason = episode.info.terminal_reason
  return {
    rates: {
      safe_ship: reason === 'safe_ship',
      unsafe_ship: reason === 'unsafe_ship',
      missed_deadline: reason === 'missed_deadline',
      truncated: episode.truncated,
    },
    values: {
      false_blocks: metric(episode.info, 'false_blocks'),
      true_blocks: metric(episode.info, 'true_blocks'),
      invalid_actions: metric(episode.info, 'invalid_actions'),
      budget_spent: typeof episode.info.budget_spent === 'number' ? episode.info.budget_spent : 0,
    },
  }
}
