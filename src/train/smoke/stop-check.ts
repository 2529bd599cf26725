/**
 * @module train/smoke: the smoke's stop check: a second, longer run is stopped once it is training; the status
 * must say `stopped` with the signal, and no process of the trainer's group may be left (no orphan).
 */
import { processGroupMembers } from '../process-group.js'
import type { SmokeCheck } from './smoke-checks.js'
import { parseReply, type SmokeClient } from './smoke-client.js'
import { trainingMetricsReplySchema, trainingStartReplySchema, trainingStatusReplySchema } from './smoke-replies.js'
import { log, sleep } from './smoke-steps.js'
import { tinyModelFolders } from './tiny-model-settings.js'

export async function runStopCheck(options: { client: SmokeClient; env: string }): Promise<SmokeCheck[]> {
  const { client } = options
  const start = await client.request('POST', '/train/start', {
    preset: 'pilot',
    env_id: options.env,
    model_path: tinyModelFolders.warm,
    max_steps: 500,
    num_generations: 2,
    per_device_train_batch_size: 2,
    gradient_accumulation_steps: 1,
    // One tool round; max_completion_length left out: the server fills in the measured one-round budget.
    max_tool_calling_iterations: 1,
    logging_steps: 1,
    max_rows: 64,
  })
  if (start.status !== 202)
    return [{ name: 'stop mid-run', ok: false, detail: `start: HTTP ${start.status} ${JSON.stringify(start.json)}` }]
  const { pid } = parseReply(trainingStartReplySchema, 'POST /train/start', start)
  // Training has begun once the trainer logged its first step.
  const deadline = Date.now() + 5 * 60_000
  let step = 0
  while (Date.now() < deadline) {
    const metrics = await client.parsed(trainingMetricsReplySchema, 'GET', '/train/metrics')
    step = metrics.global_step ?? 0
    if (step >= 1) break
    const status = await client.parsed(trainingStatusReplySchema, 'GET', '/train/status')
    if (!status.running) break
    await sleep(500)
  }
  const before = (await processGroupMembers(pid)) ?? []
  log(`stopping run at step ${step}: process group ${pid} has ${before.length} process(es)`)
  const stop = await client.request('POST', '/train/stop')
  const status = trainingStatusReplySchema.partial().safeParse(stop.json).data ?? {}
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
