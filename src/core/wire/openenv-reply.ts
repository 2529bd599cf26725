/**
 * @module core/wire: the OpenEnv replies our server sends, as zod schemas: the one declaration the
 * server (OpenAPI, `/schema`, the payload builder's types), the TypeScript client (it validates every
 * reply) and the training smoke (error bodies) read. Objects are loose: a reader checks what it reads
 * and tolerates fields added later. The server builds the bytes by string concatenation on its hot path
 * (`server/wire/observation-payload.ts`); these schemas say what those bytes hold.
 */
import { z } from 'zod'

const jsonObjectSchema = z.record(z.string(), z.unknown())

/** A bad call inside an observation (`EnvError`): the env's code, message and per-argument issues. */
export const envErrorSchema = z
  .looseObject({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ code: z.string(), path: z.string(), message: z.string() })).optional(),
  })
  .describe('Set when the call was bad: {code, message, issues?}.')

/** `metadata` (OpenEnv #616): kept at the top level and inside `observation`. */
export const replyMetadataSchema = z
  .looseObject({
    terminated: z.boolean(),
    truncated: z.boolean(),
    info: z
      .looseObject({ cumulative_reward: z.number(), step_count: z.int().min(0) })
      .describe('Env info: cumulative_reward, step_count and env-specific fields.'),
    text: z.string().describe('The observation rendered as the model sees it.'),
    error: envErrorSchema.optional(),
  })
  .describe('Kept on the wire (OpenEnv #616): episode flags, info and the rendered text.')

export type ReplyMetadata = z.output<typeof replyMetadataSchema>

/**
 * The env observation on the wire: plain JSON, `metadata` kept inside it, `error` after a bad call. A
 * `call_tool` observation (OpenEnv `CallToolObservation`) has `error: null`: the bad call is in its result.
 */
const wireObservationSchema = z
  .looseObject({ metadata: replyMetadataSchema.optional(), error: envErrorSchema.nullable().optional() })
  .describe('The env observation; `metadata` is kept inside it too.')

/** OpenEnv `StepResponse` / `ResetResponse` with `metadata` kept: what reset, step and call_tool answer. */
export const observationReplySchema = z
  .looseObject({
    observation: wireObservationSchema,
    reward: z.number().nullable().describe('This step’s reward (0 after a reset, as OpenEnv envs report it).'),
    done: z.boolean().describe('terminated || truncated'),
    metadata: replyMetadataSchema,
  })
  .describe('OpenEnv StepResponse / ResetResponse with metadata kept.')

export type ObservationReply = z.output<typeof observationReplySchema>

/** OpenEnv `ListToolsObservation` in a step reply (a `list_tools` action): no metadata, no reward. */
export const listToolsReplySchema = z
  .looseObject({
    observation: z.looseObject({
      tools: z.array(z.looseObject({ name: z.string(), description: z.string(), input_schema: jsonObjectSchema })),
    }),
    reward: z.null(),
    done: z.literal(false),
  })
  .describe('OpenEnv ListToolsObservation (the reply to a list_tools action).')

/** `POST /step`: a tool-call or call_tool action's observation, or a list_tools action's tool list. */
export const stepReplySchema = z
  .union([observationReplySchema, listToolsReplySchema])
  .describe('OpenEnv StepResponse with metadata kept, or the ListToolsObservation of a list_tools action.')

/** OpenEnv `State` (a `state` reply, `GET /state`): episode id and step count, then the env's own state. */
export const stateReplySchema = z
  .looseObject({
    // Defaults as OpenEnv's pydantic `State` has them (its /schema lists them, nothing required).
    episode_id: z.string().nullable().default(null).describe('The episode_id given to reset.'),
    step_count: z.int().min(0).default(0).describe('Steps in the current episode.'),
  })
  .meta({
    title: 'State',
    description: 'OpenEnv State: episode_id and step_count, then the env state (no hidden ground truth).',
  })

/** Every HTTP error body: `{error: {code, message, path?, issues?, ...details}}`. */
export const errorReplySchema = z
  .looseObject({
    error: z.looseObject({ code: z.string(), message: z.string() }),
  })
  .describe('A coded error: {error: {code, message, path?, issues?, ...}}.')

/**
 * A schema as plain JSON Schema for a document that embeds it (`/schema`): no `$schema` line. `input`
 * describes what may be sent (defaulted fields optional, their defaults shown), as pydantic's schemas do.
 */
export function embeddedJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>
  return rest
}
