/**
 * @module train/smoke: the smoke's learning probe. The warm model (before GRPO) and the trained one (after) each
 * write first calls for the same held-out episodes (the `eval_seen` split: seeds GRPO never trained on),
 * sampled with one fixed seed; a server of their own judges every call, so the GRPO run's counters stay
 * exactly the trainer's. Each sample scores what the env gives it (no call: the reset's −0.6 on v3).
 * The check gates on the accepted-call rate rising; the paired bootstrap intervals over rows (reward and
 * accepted-call rate, the gain not one tool's alone: `learning-verdict.ts`) are computed and reported
 * beside it, not yet gated (the 16-row probe does not clear 0; decision 0050).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { envRegistry } from '../../envs/index.js'
import { describeGain, type LearningVerdict, learningVerdict, type ProbeStats, probeReportSchema } from '../learning-verdict.js'
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

export const probeSettings = { split: 'eval_seen', rows: 16, samplesPerRow: 4, seed: 1234, maxNewTokens: 48 } as const

export async function runLearningProbe(options: {
  python: string
  envId: string
  work: string
  before: string
  after: string
  startServer: SmokeServerStarter
}): Promise<{ learning: Learning; check: SmokeCheck }> {
  const dataset = envRegistry.get(options.envId).dataset
  if (!dataset) throw new SmokeStepError('no_dataset', `${options.envId} has no dataset.`)
  const rows = dataset.rows(probeSettings.split).slice(0, probeSettings.rows)
  const rowsPath = join(options.work, 'probe-rows.jsonl')
  await writeFile(rowsPath, rows.map((row) => `${dataset.serializeRow(row)}\n`).join(''))
  const out = join(options.work, 'probe.json')
  const server = await options.startServer({ envId: options.envId })
  try {
    await runPython({
      python: options.python,
      args: [
        '-m',
        'releaseops_train.probe',
        '--rows',
        rowsPath,
        '--env-url',
        server.url,
        '--env-id',
        options.envId,
        '--count',
        String(probeSettings.rows),
        '--samples-per-row',
        String(probeSettings.samplesPerRow),
        '--seed',
        String(probeSettings.seed),
        '--max-new-tokens',
        String(probeSettings.maxNewTokens),
        '--temperature',
        '1.0',
        '--model',
        `before=${options.before}`,
        '--model',
        `after=${options.after}`,
        '--out',
        out,
      ],
      label: 'probe',
    })
  } finally {
    await server.close()
  }
  const parsed = probeReportSchema.safeParse(JSON.parse(await readFile(out, 'utf8')))
  if (!parsed.success) throw new SmokeStepError('bad_probe_report', `${out}: ${parsed.error.issues[0]?.message}`)
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
    rows: rows.length,
    samples_per_row: probeSettings.samplesPerRow,
    seed: probeSettings.seed,
    verdict,
    probe: { before: brief(before), after: brief(after) },
  }
  // The gate stays the point estimate: on the 16-row probe the paired interval does not yet clear 0 (the
  // v2 smoke measured accepted-call gain 0.125, 95% [-0.078, 0.344]); it is reported until it can gate.
  return {
    learning,
    check: {
      name: learningCheckName,
      ok: after.accepted_call_rate > before.accepted_call_rate,
      detail: `accepted-call rate ${before.accepted_call_rate} → ${after.accepted_call_rate}; paired 95% intervals (reported, not gated): ${describeGain(reward)}; ${describeGain(accepted)}; accepted by tool ${JSON.stringify(before.accepted_by_tool)} → ${JSON.stringify(after.accepted_by_tool)}`,
    },
  }
}

export const learningCheckName = 'learning: held-out accepted-call rate rose after GRPO'
