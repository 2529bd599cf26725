/**
 * The measurements behind the rollout gate's thresholds (decision 0064): every model of
 * `test/gate-calibration-models.ts` through `gate rollout` on the demo release's val split (qwen3.5 text
 * over HTTP, two samples per prompt), and the Arena ladder, the audit's degenerate strategies and a sampled
 * reference through the Arena gate on each eval split. Prints one Markdown table per gate and writes
 * `bench/results/gate-calibration.json`.
 *
 *   node --import tsx bench/gate-calibration.ts [--rows 2000] [--arena-rows 0] [--gates grading,arena]
 *   (--arena-rows 0: every row of each split; the full run takes about an hour on two busy cores)
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { GateReport } from '../src/eval/gate/gate-report.js'
import { arenaGateModels, runArenaGate } from '../test/gate-arena-models.js'
import { gradingGateModels, trainMajority } from '../test/gate-calibration-models.js'
import { gateFixture, policyEndpoint, runGate } from '../test/gate-fixture.js'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000' },
    'arena-rows': { type: 'string', default: '0' },
    gates: { type: 'string', default: 'grading,arena' },
  },
})
const gates = new Set(values.gates.split(','))

interface Row {
  gate: string
  split: string
  model: string
  kind: string
  expected: readonly string[]
  status: string
  reasons: string[]
  rate: number | null
  mixed_share: number | null
  tool_share: number | null
  effective_ratio: number | null
  top_share: number | null
  unsafe_share: number | null
}

function row(
  gate: string,
  split: string,
  model: { name: string; kind: string; reasons: readonly string[] },
  report: GateReport,
): Row {
  return {
    gate,
    split,
    model: model.name,
    kind: model.kind,
    expected: model.reasons,
    status: report.status,
    reasons: report.reasons.map((reason) => reason.code),
    rate: report.rate,
    mixed_share: report.per_prompt.mixed_share,
    tool_share: report.signals.tool_use?.share ?? null,
    effective_ratio: report.signals.answers?.effective_ratio ?? null,
    top_share: report.signals.answers?.top_share ?? null,
    unsafe_share: report.signals.ships?.unsafe_share ?? null,
  }
}

const fixed = (value: number | null) => (value === null ? '—' : value.toFixed(3))

function table(rows: readonly Row[]): string {
  const lines = [
    '| split | model | rate | mixed | tool/evidence use | answer diversity | top answer | unsafe ships | reasons |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  for (const item of rows)
    lines.push(
      `| ${item.split} | ${item.model} | ${fixed(item.rate)} | ${fixed(item.mixed_share)} | ${fixed(item.tool_share)} | ${fixed(item.effective_ratio)} | ${fixed(item.top_share)} | ${fixed(item.unsafe_share)} | ${item.reasons.join(', ') || 'passed'} |`,
    )
  return lines.join('\n')
}

const results: Row[] = []
const fixture = await gateFixture(Number(values.rows))
const majority = await trainMajority(fixture)
for (const model of gates.has('grading') ? gradingGateModels(fixture, majority) : []) {
  const server = await policyEndpoint({ fixture, create: model.create })
  try {
    const { report } = await runGate({ fixture, baseUrl: server.url, concurrency: 1 })
    results.push(row('grading', `val (${fixture.keys.length} rows × 2)`, model, report))
    process.stderr.write(`grading ${model.name}: ${report.status} ${report.reasons.map((reason) => reason.code).join(',')}\n`)
  } finally {
    await server.close()
  }
}
const arenaRows = Number(values['arena-rows'])
for (const split of gates.has('arena') ? ['eval_seen', 'eval_unseen', 'eval'] : []) {
  for (const model of arenaGateModels()) {
    const report = await runArenaGate({ split, model, ...(arenaRows > 0 ? { limit: arenaRows } : {}) })
    results.push(row('arena', split, model, report))
    process.stderr.write(
      `arena ${split} ${model.name}: ${report.status} ${report.reasons.map((reason) => reason.code).join(',')}\n`,
    )
  }
}
process.stdout.write(`## grading-v1\n\n${table(results.filter((item) => item.gate === 'grading'))}\n\n`)
process.stdout.write(`## releaseops-v3\n\n${table(results.filter((item) => item.gate === 'arena'))}\n`)
mkdirSync('bench/results', { recursive: true })
writeFileSync(
  join('bench/results', 'gate-calibration.json'),
  `${JSON.stringify({ rows: Number(values.rows), results }, null, 2)}\n`,
)
