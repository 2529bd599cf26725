/**
 * @module train/smoke: what the smoke reads back from the server once the trainer has ended (counters,
 * log history, the run folder, the rollout log) and the checks that evidence answers.
 */
import type { z } from 'zod'
import { checkSmokeRun, type SmokeCheck } from './smoke-checks.js'
import { parseReply, type SmokeClient, type waitForEnd } from './smoke-client.js'
import {
  outputsListingSchema,
  rolloutLineSchema,
  serverCountersSchema,
  trainingMetricsReplySchema,
  trainingStatusReplySchema,
} from './smoke-replies.js'

/** The run's evidence, read back from the server once the trainer has ended. */
export interface RunEvidence {
  counters: z.output<typeof serverCountersSchema>
  metrics: z.output<typeof trainingMetricsReplySchema>
  files: string[]
  rollouts: z.output<typeof rolloutLineSchema>[]
}

export async function readRunEvidence(client: SmokeClient, env: string, runId: string): Promise<RunEvidence> {
  const counters = await client.parsed(serverCountersSchema, 'GET', `/counters?env=${env}&recent=10000`)
  const metrics = await client.parsed(trainingMetricsReplySchema, 'GET', '/train/metrics')
  const listing = await client.parsed(outputsListingSchema, 'GET', `/outputs/ls?path=runs/${runId}&depth=3`)
  const files = (listing.entries ?? []).map((entry) => entry.path.replace(`runs/${runId}/`, ''))
  const rolloutsText = (
    await client.bytes(`/outputs/file?path=runs/${runId}/rollouts.jsonl`).catch(() => Buffer.from(''))
  ).toString()
  return { counters, metrics, files, rollouts: parseRollouts(rolloutsText) }
}

/** The rollout log's lines, each checked against its schema. */
export function parseRollouts(text: string): z.output<typeof rolloutLineSchema>[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line, index) =>
      parseReply(rolloutLineSchema, `rollouts.jsonl line ${index + 1}`, { status: 200, json: JSON.parse(line) }),
    )
}

/** The env's accepted and rejected tool calls, from the server's counters. */
export function toolCallTally(
  counters: z.output<typeof serverCountersSchema>,
  env: string,
): { accepted_tool_calls: number; rejected_tool_calls: number } {
  const envCounters = counters.envs[env]
  const rejected = envCounters?.tool_errors ?? 0
  return { accepted_tool_calls: (envCounters?.tool_calls_total ?? 0) - rejected, rejected_tool_calls: rejected }
}

/** The checks the run's evidence answers: accepted calls, the run's own checks, the live feed. */
export function evidenceChecks(options: {
  env: string
  status: Awaited<ReturnType<typeof waitForEnd>>
  evidence: RunEvidence
  calls: { accepted_tool_calls: number; rejected_tool_calls: number }
  live: ReturnType<SmokeClient['live']>
}): SmokeCheck[] {
  const { status, evidence, calls, live } = options
  return [
    {
      name: 'the env accepted some of the trainer’s tool calls',
      ok: calls.accepted_tool_calls > 0,
      detail: `accepted ${calls.accepted_tool_calls}, rejected ${calls.rejected_tool_calls} (server counters)`,
    },
    ...checkSmokeRun({
      envId: options.env,
      state: String(status.state),
      exitCode: status.exit_code,
      rows: evidence.metrics.log_history,
      rollouts: evidence.rollouts,
      counters: evidence.counters,
      files: evidence.files,
    }),
    {
      name: 'live feed streamed status and metrics',
      ok:
        (live.counts.status ?? 0) > 0 &&
        (live.counts.metrics ?? 0) > 0 &&
        trainingStatusReplySchema.safeParse(live.last.status).data?.state === status.state,
      detail: JSON.stringify(live.counts),
    },
  ]
}

export async function plotCheck(client: SmokeClient): Promise<SmokeCheck> {
  const png = await client.bytes('/train/plot.png')
  return {
    name: 'plot.png rendered',
    ok: png.subarray(1, 4).toString() === 'PNG' && png.length > 1000,
    detail: `${png.length} bytes`,
  }
}
