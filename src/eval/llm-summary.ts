/**
 * @module eval: the summary of an LLM run: the same blocks as for policies (`buildSummary` over the scored
 * episodes: rates with Wilson intervals, averages, per split and family, the LLM values `repaired_actions`,
 * `parse_issues`, `turns` and tokens among them), and in each block an `llm` section: unscored episodes by
 * cause, parse issues by code, tokens, latency percentiles per model call, how episodes ended, and pass^k.
 */
import type { JsonObject } from '../core/json/json-value.js'
import { buildSummary, type EvalSummary } from './build-summary.js'
import { type LlmEpisodeLine, toEpisodeRecord } from './llm-episode-record.js'
import { passHatK } from './pass-hat-k.js'
import { latencySummary } from './percentiles.js'
import type { SummaryBlock } from './summarize-episodes.js'

export interface LlmSummaryOptions {
  lines: readonly LlmEpisodeLine[]
  groupBy: readonly string[]
  /** Samples per row; pass^1..pass^k are reported when > 1. */
  samples: number
  /** The rate that counts as success for pass^k (default: the outcome's first rate, e.g. safe_ship). */
  successRate?: string
}

function count<T extends string>(items: readonly T[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1
  return counts
}

function llmSection(lines: readonly LlmEpisodeLine[], options: LlmSummaryOptions, successRate: string | undefined): JsonObject {
  const scored = lines.filter((line) => line.status === 'scored')
  const parseIssues: Record<string, number> = {}
  let repaired = 0
  let invalid = 0
  let lengthStops = 0
  let retries = 0
  let prompt = 0
  let completion = 0
  const sources = new Set<string>()
  const latencies: number[] = []
  for (const line of lines) {
    retries += line.llm.retries
    if (line.status !== 'scored') continue
    repaired += line.llm.repaired_actions
    invalid += line.llm.invalid_actions
    lengthStops += line.llm.length_stops
    for (const [code, value] of Object.entries(line.llm.parse_issues)) parseIssues[code] = (parseIssues[code] ?? 0) + value
    prompt += line.llm.usage.prompt_tokens
    completion += line.llm.usage.completion_tokens
    sources.add(line.llm.usage.source)
    latencies.push(...line.llm.latency_ms)
  }
  const section: JsonObject = {
    episodes: lines.length,
    scored: scored.length,
    infra_errors: lines.filter((line) => line.status === 'infra_error').length,
    tool_errors: lines.filter((line) => line.status === 'tool_error').length,
    repaired_actions: repaired,
    parse_issues: parseIssues,
    invalid_actions: invalid,
    length_stops: lengthStops,
    retries,
    tokens: {
      prompt,
      completion,
      total: prompt + completion,
      per_episode: scored.length === 0 ? 0 : Math.round(((prompt + completion) / scored.length) * 10) / 10,
      source: sources.size === 1 ? ([...sources][0] as string) : sources.size === 0 ? 'none' : 'mixed',
    },
    latency_ms: { ...latencySummary(latencies) },
    ends: count(scored.map((line) => line.end)),
  }
  if (options.samples > 1 && successRate !== undefined) {
    const byRow = new Map<number, boolean[]>()
    for (const line of scored)
      byRow.set(line.row_index, [...(byRow.get(line.row_index) ?? []), line.outcome.rates[successRate] === true])
    const values = passHatK([...byRow.values()], options.samples)
    section.pass_k = {
      success: successRate,
      rows: byRow.size,
      ...Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, value === null ? null : Math.round(value * 1000) / 1000]),
      ),
    }
  }
  return section
}

export function buildLlmSummary(options: LlmSummaryOptions): EvalSummary {
  const scored = options.lines.filter((line) => line.status === 'scored')
  const summary = buildSummary(
    scored.map((line, index) => toEpisodeRecord(line, index)),
    options.groupBy,
  )
  const successRate = options.successRate ?? Object.keys(scored[0]?.outcome.rates ?? options.lines[0]?.outcome.rates ?? {})[0]
  const policies = new Set(options.lines.map((line) => line.policy))
  for (const policy of policies) {
    const lines = options.lines.filter((line) => line.policy === policy)
    const block = (summary[policy] ??= { overall: { count: 0, avg_reward: 0 } as SummaryBlock })
    block.overall.llm = llmSection(lines, options, successRate)
    for (const group of options.groupBy) {
      const blocks = block[`by_${group}`]
      if (!blocks) continue
      for (const [value, groupBlock] of Object.entries(blocks)) {
        groupBlock.llm = llmSection(
          lines.filter((line) => String(line.row[group]) === value),
          options,
          successRate,
        )
      }
    }
  }
  return summary
}
