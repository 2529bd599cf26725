/**
 * @module cli: the smoke's stop check: a second, longer run is stopped once it is training; the status
 * must say `stopped` with the signal, and no process of the trainer's group may be left (no orphan).
 */

import { processGroupMembers } from '../../train/process-group.js'
import type { SmokeCheck } from '../../train/smoke-checks.js'
import { log, type SmokeClient, sleep } from './train-smoke-steps.js'

type Json = Record<string, unknown>

export async function runStopCheck(options: { client: SmokeClient; env: string }): Promise<SmokeCheck[]> {
  const { client } = options
  const start = await client.request('POST', '/train/start', {
    preset: 'pilot',
    env_id: options.env,
    model_path: 'models/tiny-qwen3-warm',
    max_steps: 500,
    num_generations: 2,
    per_device_train_batch_size: 2,
    gradient_accumulation_steps: 1,
    max_completion_length: 64,
    logging_steps: 1,
    max_rows: 64,
  })
  if (start.status !== 202)
    return [{ name: 'stop mid-run', ok: false, detail: `start: HTTP ${start.status} ${JSON.stringify(start.json)}` }]
  const pid = (start.json as Json).pid as number
  // Training has begun once the trainer logged its first step.
  const deadline = Date.now() + 5 * 60_000
  let step = 0
  while (Date.now() < deadline) {
    const metrics = (await client.request('GET', '/train/metrics')).json as Json
    step = typeof metrics.global_step === 'number' ? metrics.global_step : 0
    if (step >= 1) break
    const status = (await client.request('GET', '/train/status')).json as Json
    if (!status.running) break
    await sleep(500)
  }
  const before = (await processGroupMembers(pid)) ?? []
  log(`stopping run at step ${step}: process group ${pid} has ${before.length} process(es)`)
  const stop = await client.request('POST', '/train/stop')
  const status = stop.json as Json
  await sleep(300)
  const after = (await processGroupMembers(pid)) ?? []
  const again = await client.request('POST', '/train/stop')
  return [
    {
      name: 'stop mid-run: status stopped with the signal',
      ok:
        stop.status === 200 &&
        status.state === 'stopped' &&
        status.running === false &&
        (status.signal !== null || status.exit_code !== null) &&
        step >= 1,
      detail: `HTTP ${stop.status}, state ${status.state}, signal ${status.signal}, exit code ${status.exit_code}, stopped at step ${step}`,
    },
    {
      name: 'stop mid-run: no orphan process',
      ok: before.length >= 1 && after.length === 0,
      detail: `group ${pid}: ${before.length} process(es) before, ${after.length} after`,
    },
    {
      name: 'stop with nothing running is a 409',
      ok: again.status === 409,
      detail: `HTTP ${again.status}`,
    },
  ]
}
