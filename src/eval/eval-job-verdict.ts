/**
 * @module eval: how an eval job that ran to its end is judged. A summary over fewer episodes than were
 * asked for is not the summary that was asked for: a job whose every episode went unscored (the endpoint
 * failed, not the model) has `failed`; one with more than `max_failure_share` of its episodes unscored has
 * `degraded` (its summary stands, with the reason beside it); otherwise `succeeded`.
 */

/** The share of unscored episodes above which a job is `degraded` (1 in 20; a request may set its own). */
export const defaultMaxFailureShare = 0.05

export interface EvalJobCounts {
  scored: number
  /** Episodes that ended in an infrastructure or tool fault (never scored as the model's). */
  unscored: number
  /** Unscored episodes by cause (`infra_error`, `tool_error`). */
  causes?: Record<string, number>
  /** The first unscored episode's fault, to say why. */
  firstFault?: { code: string; message: string }
}

export interface EvalJobVerdict {
  state: 'succeeded' | 'degraded' | 'failed'
  error: { code: 'no_episode_scored' | 'episodes_unscored'; message: string } | null
  failure_share: number
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`

function why(counts: EvalJobCounts): string {
  const causes = Object.entries(counts.causes ?? {})
    .filter(([, count]) => count > 0)
    .map(([cause, count]) => `${count} ${cause}`)
  const fault = counts.firstFault ? `; first: ${counts.firstFault.code}: ${counts.firstFault.message}` : ''
  return `${causes.length > 0 ? ` (${causes.join(', ')})` : ''}${fault}`
}

export function judgeEvalJob(counts: EvalJobCounts, maxFailureShare = defaultMaxFailureShare): EvalJobVerdict {
  const total = counts.scored + counts.unscored
  const share = total === 0 ? 1 : counts.unscored / total
  if (counts.scored === 0) {
    const message =
      total === 0
        ? 'No episode ran: the job had no rows to play.'
        : `No episode was scored: all ${total} went unscored${why(counts)}.`
    return { state: 'failed', error: { code: 'no_episode_scored', message }, failure_share: share }
  }
  if (share > maxFailureShare) {
    const message = `${counts.unscored} of ${total} episodes went unscored (${percent(share)}, above ${percent(maxFailureShare)})${why(counts)}: the summary rests on the ${counts.scored} scored ones.`
    return { state: 'degraded', error: { code: 'episodes_unscored', message }, failure_share: share }
  }
  return { state: 'succeeded', error: null, failure_share: share }
}
