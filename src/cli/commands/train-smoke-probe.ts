/**
 * @module cli: the smoke's learning probe. The warm model (before GRPO) and the trained one (after) each
 * write first calls for the same held-out episodes (the `eval_seen` split: seeds GRPO never trained on),
 * sampled with one fixed seed; a server of their own judges every call, so the GRPO run's counters stay
 * exactly the trainer's. Learning is shown when the accepted-call rate goes up.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { envRegistry } from '../../envs/index.js'
import { parseServerOptions } from '../../server/server-options.js'
import { startServer } from '../../server/start-server.js'
import type { SmokeCheck } from '../../train/smoke-checks.js'
import { runPython, SmokeStepError } from './train-smoke-steps.js'

export interface ProbeStats {
  samples: number
  completions_with_call: number
  accepted_calls: number
  rejected_calls: number
  accepted_call_rate: number
  mean_first_step_reward: number
  accepted_by_tool: Record<string, number>
}

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
}): Promise<{ learning: Learning; check: SmokeCheck }> {
  const dataset = envRegistry.get(options.envId).dataset
  if (!dataset) throw new SmokeStepError('no_dataset', `${options.envId} has no dataset.`)
  const rows = dataset.rows(probeSettings.split).slice(0, probeSettings.rows)
  const rowsPath = join(options.work, 'probe-rows.jsonl')
  await writeFile(rowsPath, rows.map((row) => `${dataset.serializeRow(row)}\n`).join(''))
  const out = join(options.work, 'probe.json')
  const server = await startServer({
    options: parseServerOptions({ host: '127.0.0.1', port: 0, logLevel: 'warn', defaultEnvId: options.envId }),
    registry: envRegistry,
    registryDefaultEnvId: options.envId,
  })
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
  const report = JSON.parse(await readFile(out, 'utf8')) as { models: { before: ProbeStats; after: ProbeStats } }
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
