/** @module cli: the printed eval summary: one row per policy/model and slice, plus intervals and LLM details. */
import { type EvalSummary, summaryColumns } from '../../eval/build-summary.js'
import type { SummaryBlock } from '../../eval/summarize-episodes.js'
import { formatTable } from '../format-table.js'

const cell = (key: string, value: unknown) =>
  typeof value !== 'number' ? '' : key === 'count' ? String(value) : value.toFixed(3)

const isCeiling = (blocks: EvalSummary[string]) => (blocks as { run?: { ceiling?: boolean } }).run?.ceiling === true

/** `gap to ceiling (avg_reward): naive 1.456, …` against the first ceiling row, if there is one. */
function ceilingGaps(summary: EvalSummary): string {
  const ceiling = Object.entries(summary).find(([, blocks]) => isCeiling(blocks))
  if (!ceiling) return ''
  const [ceilingName, ceilingBlocks] = ceiling
  const gaps = Object.entries(summary)
    .filter(([, blocks]) => !isCeiling(blocks))
    .map(([policy, blocks]) => `${policy} ${(ceilingBlocks.overall.avg_reward - blocks.overall.avg_reward).toFixed(3)}`)
  return `\n\n${ceilingName} (ceiling) reads hidden state: it is the best achievable score, not a baseline.${gaps.length > 0 ? `\nGap to the ceiling (avg_reward, overall): ${gaps.join(', ')}` : ''}`
}

export function renderSummaryTable(summary: EvalSummary): string {
  const first = Object.values(summary)[0]?.overall
  if (!first) return '(no episodes)'
  const columns = summaryColumns(first)
  const header = ['policy', 'slice', ...columns.map((key) => key.replace(/^avg_/, '').replace(/_rate$/, ''))]
  const rows: string[][] = []
  const add = (policy: string, slice: string, block: SummaryBlock) =>
    rows.push([policy, slice, ...columns.map((key) => cell(key, block[key]))])
  for (const [policy, blocks] of Object.entries(summary)) {
    const label = isCeiling(blocks) ? `${policy} (ceiling)` : policy
    add(label, 'overall', blocks.overall)
    for (const [group, values] of Object.entries(blocks)) {
      if (!group.startsWith('by_')) continue
      for (const [value, block] of Object.entries(values as Record<string, SummaryBlock>))
        add(label, `${group.slice(3)}=${value}`, block)
    }
  }
  const intervals = Object.entries(summary).map(([policy, blocks]) => {
    const ci = (blocks.overall.ci95 ?? {}) as Record<string, [number, number] | null>
    const parts = Object.entries(ci).map(
      ([key, bounds]) => `${key} [${bounds?.map((bound) => bound.toFixed(3)).join(', ') ?? '-'}]`,
    )
    return `  ${policy}${intervalBasis(blocks.overall)}: ${parts.join('; ')}`
  })
  return `${formatTable(header, rows)}\n\nWilson 95% intervals (overall):\n${intervals.join('\n')}${ceilingGaps(summary)}`
}

interface IntervalBasis {
  method: string
  rows: number
  episodes: number
  effective_n?: Record<string, number>
}

/** ` (500 rows)`, or for repeated rows how many episodes the distinct rows stand for and what they count as. */
function intervalBasis(block: SummaryBlock): string {
  const basis = block.ci95_basis as unknown as IntervalBasis | undefined
  if (!basis) return ''
  if (basis.episodes === basis.rows) return ` (${basis.rows} rows)`
  const counted = Object.values(basis.effective_n ?? {})
  const low = Math.min(...counted)
  const high = Math.max(...counted)
  const range = low === high ? `${low}` : `${low}–${high}`
  return ` (${basis.episodes} episodes of ${basis.rows} distinct rows, clustered by row: they count as ${range} trials)`
}

interface LlmSection {
  scored: number
  infra_errors: number
  tool_errors: number
  repaired_actions: number
  parse_issues: Record<string, number>
  retries: number
  tokens: { prompt: number; completion: number; total: number; per_episode: number; source: string }
  latency_ms: { count: number; p50: number | null; p90: number | null; p99: number | null; max: number | null }
  ends: Record<string, number>
  pass_k?: Record<string, unknown>
}

/** The LLM lines under the table: latency, tokens, parse issues, ends, unscored episodes, pass^k. */
export function renderLlmDetails(summary: EvalSummary): string {
  const lines: string[] = []
  for (const [policy, blocks] of Object.entries(summary)) {
    const llm = blocks.overall.llm as unknown as LlmSection | undefined
    if (!llm) continue
    const issues = Object.entries(llm.parse_issues).map(([code, count]) => `${code} ${count}`)
    const ends = Object.entries(llm.ends).map(([end, count]) => `${end} ${count}`)
    lines.push(
      `${policy}:`,
      `  model calls ${llm.latency_ms.count}, latency ms p50 ${llm.latency_ms.p50 ?? '-'} p90 ${llm.latency_ms.p90 ?? '-'} p99 ${llm.latency_ms.p99 ?? '-'} max ${llm.latency_ms.max ?? '-'}; retries ${llm.retries}`,
      `  tokens ${llm.tokens.total} (prompt ${llm.tokens.prompt}, completion ${llm.tokens.completion}; ${llm.tokens.per_episode}/episode; ${llm.tokens.source})`,
      `  repaired actions ${llm.repaired_actions}; parse issues ${issues.length > 0 ? issues.join(', ') : 'none'}`,
      `  ends: ${ends.join(', ') || '-'}; unscored: ${llm.infra_errors} infrastructure, ${llm.tool_errors} tool`,
    )
    if (llm.pass_k) {
      const values = Object.entries(llm.pass_k).filter(([key]) => key.startsWith('pass^'))
      lines.push(
        `  ${values.map(([key, value]) => `${key} ${typeof value === 'number' ? value.toFixed(3) : '-'}`).join(', ')} (success = ${String(llm.pass_k.success)}, ${String(llm.pass_k.rows)} rows)`,
      )
    }
  }
  return lines.join('\n')
}
