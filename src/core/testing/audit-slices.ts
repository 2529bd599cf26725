/**
 * @module core/testing: the exploit audit's slices: every played policy scored on each named subset of
 * the resets, and on held-out slices, how much the memoriser drops against the seen ones.
 */
import { round3, type SliceScore, summariseRewards } from './audit-score.js'

export interface AuditSlice {
  name: string
  /** What the slice measures, in a few words (printed beside its rows). */
  measures: string
  heldOut: boolean
  /** A held-out slice that must cost the memoriser at least `minDrop` against the seen slices. */
  catchesMemoriser: boolean
  /** Indices into the audit's resets. */
  indices: readonly number[]
}

export interface SliceReport {
  name: string
  measures: string
  held_out: boolean
  catches_memoriser: boolean
  /** Policy (ladder entry or `memoriser`) → its score on the slice. */
  scores: Record<string, SliceScore>
  /** Held-out slices with a memoriser: the seen slices' memoriser average minus this slice's. */
  memoriser_drop?: number
  passed?: boolean
}

/**
 * Every played policy on every slice; on held-out slices, the memoriser's drop against the pooled seen
 * slices (`minDrop`: what a slice that catches the memoriser needs, none without a memoriser).
 */
export function sliceReports(
  options: { slices: readonly AuditSlice[]; minDrop: number | undefined },
  played: ReadonlyMap<string, readonly number[]>,
): SliceReport[] {
  const pick = (rewards: readonly number[], indices: readonly number[]) => indices.map((index) => rewards[index] as number)
  const { slices } = options
  const memorised = played.get('memoriser')
  const seen = slices.filter((slice) => !slice.heldOut).flatMap((slice) => slice.indices)
  const seenAvg = memorised && seen.length > 0 ? summariseRewards(pick(memorised, seen)).avg_reward : undefined
  return slices.map((slice) => {
    const scores = Object.fromEntries(
      [...played].map(([name, rewards]) => [name, summariseRewards(pick(rewards, slice.indices))]),
    )
    const report: SliceReport = {
      name: slice.name,
      measures: slice.measures,
      held_out: slice.heldOut,
      catches_memoriser: slice.catchesMemoriser,
      scores,
    }
    if (slice.heldOut && memorised && seenAvg !== undefined) {
      report.memoriser_drop = round3(seenAvg - (scores.memoriser as SliceScore).avg_reward)
      if (slice.catchesMemoriser) report.passed = report.memoriser_drop >= (options.minDrop ?? 0)
    }
    return report
  })
}

/** A failure for each slice the memoriser was not caught on. */
export function sliceFailures(slices: readonly SliceReport[], minDrop: number | undefined): string[] {
  return slices
    .filter((slice) => slice.passed === false)
    .map(
      (slice) =>
        `the memoriser drops only ${slice.memoriser_drop} on ${slice.name} (at least ${minDrop} needed): the slice no longer tests generalisation`,
    )
}
