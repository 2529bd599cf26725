/**
 * @module server/wire: the request shapes of the OpenEnv wire protocol and of the session API, as zod
 * schemas (validation, OpenAPI and `/schema` come from these). Envelopes are strict: an unknown field is
 * a 422 with its path. What goes *inside* a tool call is not judged here: a bad call is data the env
 * answers with an error observation and the invalid-action penalty.
 */
import { z } from 'zod'

const present = (schema: z.ZodUnknown, description: string) =>
  schema.check(z.refine((value) => value !== undefined, { message: 'Required', abort: true })).describe(description)

/** OpenEnv `StepRequest.request_id` (str ≤ 255); integers too, as JSON-RPC ids are. */
const requestIdSchema = z
  .union([z.string().max(255), z.int()])
  .describe('Optional id echoed back in the reply, so a client can match replies to requests.')

const jsonObjectSchema = z.record(z.string(), z.unknown())

/**
 * Reset keyword arguments (OpenEnv `ResetRequest`, extra fields allowed so a whole dataset row can be
 * passed as TRL does). `options` holds env options; without it, every other field is an option.
 */
export const resetKwargsSchema = z
  .looseObject({
    seed: z
      .int()
      .min(0)
      .optional()
      .describe('Episode seed (a non-negative integer, as OpenEnv has it); the env default when absent.'),
    episode_id: z.string().max(255).optional().describe('Client-chosen episode id, reported by `state`.'),
    options: jsonObjectSchema.optional().describe('Env reset options; overrides same-named top-level fields.'),
  })
  .describe('Reset arguments: seed, episode_id, options, or any dataset-row fields (they become options).')

export type ResetKwargs = z.output<typeof resetKwargsSchema>

/**
 * One action. Our tool call `{tool, arguments}` (the original project's action model), or an OpenEnv
 * MCP action: `{"type":"list_tools"}` / `{"type":"call_tool","tool_name","arguments"}`.
 */
const actionSchema = z
  .strictObject({
    tool: z.unknown().optional().describe('Tool name (a tool-call action).'),
    arguments: z.unknown().optional().describe('Tool arguments: an object, or a JSON string holding one.'),
    type: z.enum(['list_tools', 'call_tool']).optional().describe('OpenEnv MCP action type.'),
    tool_name: z.string().optional().describe('Tool name of a call_tool action.'),
    metadata: jsonObjectSchema.optional().describe('OpenEnv action metadata (ignored by the env).'),
  })
  .superRefine((action, context) => {
    const has = (key: string) => Object.hasOwn(action, key) && (action as Record<string, unknown>)[key] !== undefined
    const forbid = (key: string, why: string) => {
      if (has(key)) context.addIssue({ code: 'custom', path: [key], message: `Not allowed ${why}.` })
    }
    if (action.type === undefined) {
      if (!has('tool')) context.addIssue({ code: 'custom', path: ['tool'], message: 'Required' })
      forbid('tool_name', 'in a tool-call action (use "tool")')
    } else if (action.type === 'call_tool') {
      if (!has('tool_name')) context.addIssue({ code: 'custom', path: ['tool_name'], message: 'Required' })
      forbid('tool', 'in a call_tool action (use "tool_name")')
    } else {
      for (const key of ['tool', 'tool_name', 'arguments']) forbid(key, 'in a list_tools action')
    }
  })

export type Action = z.output<typeof actionSchema>

/** `POST /step` (OpenEnv `StepRequest`): stateless, so the fresh env is reset with `seed`/`options` first. */
export const stepRequestSchema = z.strictObject({
  action: actionSchema,
  timeout_s: z.number().positive().optional().describe('Accepted for OpenEnv compatibility; steps are synchronous.'),
  request_id: requestIdSchema.optional(),
  seed: z.int().min(0).optional().describe('Seed of the fresh env this stateless step runs in.'),
  episode_id: z.string().max(255).optional(),
  options: jsonObjectSchema.optional().describe('Reset options of the fresh env.'),
})

/** `POST /sessions/{id}/step`: the original project's action model. */
export const sessionStepSchema = z.strictObject({
  tool: present(z.unknown(), 'Tool name.'),
  arguments: z.unknown().optional().describe('Tool arguments: an object, or a JSON string holding one.'),
})

/**
 * A JSON-RPC 2.0 request or notification (OpenEnv `JsonRpcRequest`, extra fields forbidden). The id is a
 * string or an integer: MCP forbids null ids (JSON-RPC only discourages them), so `"id": null` is an
 * invalid request, answered -32600 with a null id, not run (OpenEnv's clients count ids from 1).
 */
export const jsonRpcRequestSchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  params: jsonObjectSchema.optional(),
  id: z.union([z.string(), z.int()], { error: 'must be a string or an integer (MCP forbids null ids)' }).optional(),
})

export type JsonRpcRequest = z.output<typeof jsonRpcRequestSchema>

/** WebSocket `/ws` messages, one strict shape per `type` (OpenEnv's plus an optional `request_id`). */
export const wsMessageSchemas = {
  reset: z.strictObject({ type: z.literal('reset'), data: resetKwargsSchema.optional(), request_id: requestIdSchema.optional() }),
  step: z.strictObject({ type: z.literal('step'), data: actionSchema, request_id: requestIdSchema.optional() }),
  state: z.strictObject({ type: z.literal('state'), request_id: requestIdSchema.optional() }),
  close: z.strictObject({ type: z.literal('close'), request_id: requestIdSchema.optional() }),
  mcp: z.strictObject({ type: z.literal('mcp'), data: z.unknown(), request_id: requestIdSchema.optional() }),
} as const

export type WsMessageType = keyof typeof wsMessageSchemas
export type WsMessage = { [K in WsMessageType]: z.output<(typeof wsMessageSchemas)[K]> }[WsMessageType]
