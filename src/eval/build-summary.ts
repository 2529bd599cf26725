/** @module eval: the summary of a run, keyed by policy name: overall plus one block per group value. */
import type { JsonObject } from '../core/json/json-value.js'
import type { EpisodeRecord } from './episode-record.js'
import { outcomeKeys, type SummarizedEpisode, type SummaryBlock, summarizeEpisodes } from './summarize-episodes.js'

type Clustered = SummarizedEpisode & { row: EpisodeRecord['row'] }

export interface PolicySummary {
  overall: SummaryBlock
  /** `by_split`, `by_family`, …: one block per distinct value of each group key, in first-seen order. */
  [group: `by_${string}`]: Record<string, SummaryBlock>
}

export type EvalSummary = Record<string, PolicySummary>

export interface BuildSummaryOptions {
  /**
   * The dataset row an episode played, so that repeats of a row (`--repeat`, a model's samples) count as
   * one cluster in every interval. Default: the record's `rowIndex`.
   */
  rowOf?: (record: EpisodeRecord) => number | string
}

export function buildSummary(
  records: readonly EpisodeRecord[],
  groupBy: readonly string[],
  options: BuildSummaryOptions = {},
): EvalSummary {
  const keys = outcomeKeys(records)
  const rowOf = options.rowOf ?? ((record: EpisodeRecord) => record.rowIndex)
  const byPolicy = new Map<string, EpisodeRecord[]>()
  for (const record of records) {
    const list = byPolicy.get(record.policy) ?? []
    list.push(record)
    byPolicy.set(record.policy, list)
  }
  const summary: EvalSummary = {}
  for (const [policy, records] of byPolicy) {
    const episodes = withClusters(records, rowOf)
    const policySummary: PolicySummary = { overall: summarizeEpisodes(episodes, keys) }
    for (const group of groupBy) {
      const buckets = new Map<string, Clustered[]>()
      for (const episode of episodes) {
        const value = episode.row[group]
        if (value === undefined || value === null) continue
        const bucket = buckets.get(String(value)) ?? []
        bucket.push(episode)
        buckets.set(String(value), bucket)
      }
      if (buckets.size === 0) continue
      const blocks: Record<string, SummaryBlock> = {}
      for (const [value, bucket] of buckets) blocks[value] = summarizeEpisodes(bucket, keys)
      policySummary[`by_${group}`] = blocks
    }
    summary[policy] = policySummary
  }
  return summary
}

/**
 * The records with their row as `cluster` when some row was played more than once; as they are when every
 * row was played once (each episode is its own cluster: no grouping to do in any block).
 */
function withClusters(records: readonly EpisodeRecord[], rowOf: (record: EpisodeRecord) => number | string): Clustered[] {
  const rows = records.map(rowOf)
  if (new Set(rows).size === records.length) return records as readonly Clustered[] as Clustered[]
  return records.map((record, index) => ({
    reward: record.reward,
    outcome: record.outcome,
    cluster: rows[index] as number | string,
    row: record.row,
  }))
}

/** Columns of the printed table, in order. */
export function summaryColumns(block: SummaryBlock): string[] {
  return Object.keys(block).filter((key) => key !== 'ci95' && typeof (block as JsonObject)[key] === 'number')
}
