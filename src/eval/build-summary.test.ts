import { describe, expect, it } from 'vitest'
import { buildSummary } from './build-summary.js'
import type { EpisodeRecord } from './episode-record.js'
import { wilsonInterval } from './wilson-interval.js'

const record = (index: number, rowIndex: number, safe: boolean, split: string): EpisodeRecord => ({
  index,
  rowIndex,
  policy: 'p',
  row: { seed: rowIndex, split },
  reward: safe ? 1 : -1,
  terminal_reason: safe ? 'safe_ship' : 'unsafe_ship',
  terminated: true,
  truncated: false,
  end: 'terminated',
  step_count: 1,
  metrics: null,
  outcome: { rates: { safe_ship: safe }, values: {} },
})
// 40 rows, the first 30 safe; rows 0–19 in split a, 20–39 in split b.
const rows = Array.from({ length: 40 }, (_, row) => ({ row, safe: row < 30, split: row < 20 ? 'a' : 'b' }))
const round3 = (bounds: [number, number] | null) => bounds?.map((bound) => Math.round(bound * 1000) / 1000)

describe('buildSummary', () => {
  it('one episode per row: plain Wilson intervals, and the basis says so', () => {
    const summary = buildSummary(
      rows.map(({ row, safe, split }) => record(row, row, safe, split)),
      ['split'],
    )
    expect(summary.p?.overall.ci95).toEqual({ safe_ship_rate: round3(wilsonInterval(30, 40)) })
    expect(summary.p?.overall.ci95_basis).toEqual({ method: 'wilson', rows: 40, episodes: 40 })
  })

  it('rows played three times (by rowIndex, or by rowOf) are one cluster each, per block too', () => {
    const repeated = [0, 1, 2].flatMap((pass) =>
      rows.map(({ row, safe, split }) => record(pass * 40 + row, pass * 40 + row, safe, split)),
    )
    const byRowOf = buildSummary(repeated, ['split'], { rowOf: (item) => item.rowIndex % 40 })
    expect(byRowOf.p?.overall.count).toBe(120)
    expect(byRowOf.p?.overall.ci95).toEqual({ safe_ship_rate: round3(wilsonInterval(30, 40)) })
    expect(byRowOf.p?.overall.ci95_basis).toEqual({
      method: 'wilson_row_clustered',
      rows: 40,
      episodes: 120,
      effective_n: { safe_ship_rate: 40 },
    })
    expect(byRowOf.p?.by_split?.b?.ci95).toEqual({ safe_ship_rate: round3(wilsonInterval(10, 20)) })
    expect(byRowOf.p?.by_split?.b?.ci95_basis).toMatchObject({ rows: 20, episodes: 60 })
    // Without rowOf the records' rowIndex decides: here every episode has its own, so nothing is clustered.
    expect(buildSummary(repeated, []).p?.overall.ci95_basis).toEqual({ method: 'wilson', rows: 120, episodes: 120 })
  })
})
