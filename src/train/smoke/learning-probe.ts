/**
 * @module train/smoke: the smoke's learning probe. The warm model (before GRPO) and the trained one (after) each
 * write first calls for the same held-out episodes (the `eval_seen` split: seeds GRPO never trained on),
 * sampled with one fixed seed; a server of their own judges every call, so the GRPO run's counters stay
 * exactly the trainer's. Each sample scores what the env gives it (no call: the reset's −0.6 on v3).
 * The check passes when a paired bootstrap interval over rows is above 0, on the reward or the
 * accepted-call rate, the gain is not one tool's alone, and the model does not call less
 * (`learning-verdict.ts`).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { envRegistry } from '../../envs/index.js'
import {
  describeGain,
  describeNoCall,
  type LearningVerdict,
  learningVerdict,
  type ProbeStats,
  probeReportSchema,
} from '../learning-verdict.js'
import type { SmokeCheck } from './smoke-checks.js'
import { runPython, type SmokeServerStarter, SmokeStepError } from './smoke-steps.js'

export interface Learning {
  /** The metric that showed learning (the reward first), or null when neither did. */
  metric: 'reward' | 'accepted_call_rate' | null
  before: number
  after: number
  held_out_split: string
  rows: number
  samples_per_row: number
  seed: number
  verdict: LearningVerdict
  probe: { before: Omit<ProbeStats, 'per_sample'>; after: Omit<ProbeStats, 'per_sample'> }
}

const probeSettings = { split: 'eval_seen', rows: 16, samplesPerRow: 4, seed: 1234, maxNewTokens: 48 } as const

/** Writes the probe's held-out rows (JSONL) for `envId`; returns how many. */
export async function writeProbeRows(envId: string, path: string): Promise<number> {
  const dataset = envRegistry.get(envId).dataset
  if (!dataset) throw new SmokeStepError('no_dataset', `${envId} has no dataset.`)
  const rows = dataset.rows(probeSettings.split).slice(0, probeSettings.rows)
  await writeFile(path, rows.map((row) => `${dataset.serializeRow(row)}\n`).join(''))
  return rows.length
}

/** `python -u` arguments of the probe (cwd python/): both models on the rows, every call judged at `envUrl`. */
export function probeArguments(options: {
  rowsPath: string
  envUrl: string
  envId: string
  temperature: number
  before: string
  after: string
  out: string
}): string[] {
  return [
    ...['-m', 'releaseops_train.probe', '--rows', options.rowsPath, '--env-url', options.envUrl, '--env-id', options.envId],
    ...['--count', String(probeSettings.rows), '--samples-per-row', String(probeSettings.samplesPerRow)],
    ...['--seed', String(probeSettings.seed), '--max-new-tokens', String(probeSettings.maxNewTokens)],
    ...['--temperature', String(options.temperature), '--model', `before=${options.before}`, '--model', `after=${options.after}`],
    ...['--out', options.out],
  ]
}

export async function runLearningProbe(options: {
  python: string
  envId: string
  work: string
  before: string
  after: string
  temperature: number
  startServer: SmokeServerStarter
}): Promise<{ learning: Learning; check: SmokeCheck }> {
  const rowsPath = join(options.work, 'probe-rows.jsonl')
  await writeProbeRows(options.envId, rowsPath)
  const out = join(options.work, 'probe.json')
  const server = await options.startServer({ envId: options.envId })
  try {
    await runPython({
      python: options.python,
      args: probeArguments({ ...options, rowsPath, envUrl: server.url, out }),
      label: 'probe',
    })
  } finally {
    await server.close()
  }
  return learningFromProbe(out)
}

/** The probe's report judged: the learning record and the smoke's check line. */
export async function learningFromProbe(reportPath: string): Promise<{ learning: Learning; check: SmokeCheck }> {
  const parsed = probeReportSchema.safeParse(JSON.parse(await readFile(reportPath, 'utf8')))
  if (!parsed.success) throw new SmokeStepError('bad_probe_report', `${reportPath}: ${parsed.error.issues[0]?.message}`)
  const { before, after } = parsed.data.models
  const verdict = learningVerdict(before.per_sample, after.per_sample)
  const { reward, accepted_call_rate: accepted } = verdict.metrics
  const shown = reward.passed ? reward : accepted.passed ? accepted : null
  const brief = ({ per_sample: _samples, ...stats }: ProbeStats) => stats
  const learning: Learning = {
    metric: shown?.metric ?? null,
    before: (shown ?? reward).before,
    after: (shown ?? reward).after,
    held_out_split: probeSettings.split,
    rows: verdict.rows,
    samples_per_row: probeSettings.samplesPerRow,
    seed: probeSettings.seed,
    verdict,
    probe: { before: brief(before), after: brief(after) },
  }
  // Where the gain came from: the probe's own counts of first calls not written, rejected and accepted.
  const noCall = (stats: ProbeStats) => stats.samples - stats.completions_with_call
  const moved = (name: string, count: (stats: ProbeStats) => number) => `${name} ${count(before)} → ${count(after)}`
  return {
    learning,
    check: {
      name: learningCheckName,
      ok: shown !== null,
      detail: `${describeGain(reward)}; ${describeGain(accepted)}; ${describeNoCall(verdict)}; first calls ${moved('no_call', noCall)}, ${moved('rejected', (stats) => stats.rejected_calls)}, ${moved('accepted', (stats) => stats.accepted_calls)}; accepted by tool ${JSON.stringify(before.accepted_by_tool)} → ${JSON.stringify(after.accepted_by_tool)}`,
    },
  }
}

export const learningCheckName =
  'learning: the paired 95% interval of the held-out gain (reward or accepted-call rate) is above 0, not one tool’s alone, not by calling less'
