/**
 * @module train/smoke: the smoke's learning probe. The warm model (before GRPO) and the trained one (after) each
 * write first calls for the same held-out episodes (the `eval_seen` split: seeds GRPO never trained on),
 * sampled with one fixed seed; a server of their own judges every call, so the GRPO run's counters stay
 * exactly the trainer's. Learning is shown when the accepted-call rate goes up.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { envRegistry } from '../../envs/index.js'
import type { SmokeCheck } from './smoke-checks.js'
import { type ProbeStats, probeReportSchema } from './smoke-replies.js'
import { runPython, type SmokeServerStarter, SmokeStepError } from './smoke-steps.js'

export interface Learning {
  metric: 'accepted_call_rate'
  before: number
  after: number
  held_out_split: string
  rows: number
  samples_per_row: number
  seed: number
  probe: { before: ProbeStats; after: ProbeStats }
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
  const report = parsed.data
  const { before, after } = report.models
  const learning: Learning = {
    metric: 'accepted_call_rate',
    before: before.accepted_call_rate,
    after: after.accepted_call_rate,
    held_out_split: probeSettings.split,
    rows: rows.length,
    samples_per_row: probeSettings.samplesPerRow,
    seed: probeSettings.seed,
    probe: { before, after },
  }
  return {
    learning,
    check: {
      name: 'learning: held-out accepted-call rate rose after GRPO',
      ok: learning.after > learning.before,
      detail: `before ${before.accepted_call_rate} (${before.accepted_calls}/${before.samples}), after ${after.accepted_call_rate} (${after.accepted_calls}/${after.samples}); mean first-step reward ${before.mean_first_step_reward} → ${after.mean_first_step_reward}`,
    },
  }
}
