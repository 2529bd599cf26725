/**
 * @module train/smoke: the server replies the training smoke reads, as zod schemas (the types derive
 * from them). Objects are loose: the smoke reads what it checks and tolerates fields added later; a
 * reply that lacks a field it reads, or has one of the wrong type, stops the smoke with a coded error.
 * The server's error body is the wire module's (`core/wire/openenv-reply.ts`), not redeclared here.
 */
import { z } from 'zod'
import { logRowSchema } from '../log-history.js'

/** `GET /train/status` (and the status inside `POST /train/stop`, `/train/live` status events). */
export const trainingStatusReplySchema = z.looseObject({
  state: z.string(),
  running: z.boolean(),
  elapsed_seconds: z.number().nullable(),
  exit_code: z.number().nullable(),
  signal: z.string().nullable(),
  last_log_lines: z.array(z.string()).nullable(),
})
export type TrainingStatusReply = z.infer<typeof trainingStatusReplySchema>

/** `POST /train/start` when it answers 202. */
export const trainingStartReplySchema = z.looseObject({
  run_id: z.string(),
  pid: z.number(),
  command: z.array(z.string()),
})

/** `GET /train/metrics`. */
export const trainingMetricsReplySchema = z.looseObject({
  global_step: z.number().nullable(),
  max_steps: z.number().nullable(),
  log_history: z.array(logRowSchema),
})

const envCountersSchema = z.looseObject({
  resets: z.number(),
  steps: z.number(),
  tool_calls: z.record(z.string(), z.number()),
  tool_calls_total: z.number(),
  tool_errors: z.number(),
})

/** `GET /counters?env=<id>`, as far as the checks read it. */
export const serverCountersSchema = z.looseObject({
  envs: z.record(z.string(), envCountersSchema),
  recent_episodes: z.array(
    z.looseObject({
      env_id: z.string(),
      seed: z.number().nullable(),
      family: z.string().nullable(),
      cumulative_reward: z.number(),
      tool_calls: z.number(),
    }),
  ),
})
export type ServerCounters = z.infer<typeof serverCountersSchema>

/** `GET /outputs/ls`. */
export const outputsListingSchema = z.looseObject({
  entries: z.array(z.looseObject({ path: z.string() })).optional(),
})

/** One line of the trainer's `rollouts.jsonl`. */
export const rolloutLineSchema = z.looseObject({
  rollout: z.number(),
  seed: z.number().nullish(),
  family: z.string().nullish(),
  reward: z.number(),
  tool_calls: z.number(),
  tool_errors: z.number(),
})
export type RolloutLine = z.infer<typeof rolloutLineSchema>

export { type ProbeStats, probeReportSchema } from '../learning-verdict.js'
