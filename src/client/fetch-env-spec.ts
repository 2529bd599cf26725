/**
 * @module client: an `EnvSpec` rebuilt from a server's `GET /metadata`. Tool argument schemas arrive as
 * JSON Schema and become zod schemas again (`z.fromJSONSchema`), so client-side code that reads
 * `spec.tools` (the conformance suite, prompt builders) sees the same tools as in process.
 */
import { z } from 'zod'
import type { EnvSpec } from '../core/env/env-api.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import type { ToolDefinition } from '../core/tools/define-tool.js'
import { ConnectionLostError, ServerError } from './client-errors.js'

const metadataSchema = z.looseObject({
  env_id: z.string(),
  description: z.string(),
  max_episode_steps: z.int().positive(),
  deterministic: z.boolean(),
  invalid_action_reward: z.number(),
  unfinished_episode_reward: z.number().optional(),
  default_seed: z.int(),
  tools: z.array(z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) })),
})

export function specFromMetadata(metadata: unknown): EnvSpec {
  const parsed = metadataSchema.safeParse(metadata)
  if (!parsed.success) {
    throw new InvalidInputError({
      code: 'invalid_metadata',
      message: 'The server’s /metadata is not a releaseops env description.',
      issues: parsed.error.issues.map((issue) => ({ code: issue.code, path: issue.path.join('.'), message: issue.message })),
    })
  }
  const data = parsed.data
  const tools: ToolDefinition[] = data.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: z.fromJSONSchema(tool.input_schema as Parameters<typeof z.fromJSONSchema>[0]),
  }))
  return {
    id: data.env_id,
    description: data.description,
    tools,
    maxEpisodeSteps: data.max_episode_steps,
    deterministic: data.deterministic,
    invalidActionReward: data.invalid_action_reward,
    ...(data.unfinished_episode_reward === undefined ? {} : { unfinishedEpisodeReward: data.unfinished_episode_reward }),
    defaultSeed: data.default_seed,
  }
}

export async function fetchEnvSpec(options: {
  baseUrl: string
  headers: Record<string, string>
  timeoutMs: number
}): Promise<EnvSpec> {
  let response: Response
  try {
    response = await fetch(`${options.baseUrl}/metadata`, {
      headers: options.headers,
      signal: AbortSignal.timeout(options.timeoutMs),
    })
  } catch (error) {
    throw new ConnectionLostError(`Could not reach ${options.baseUrl}/metadata: ${(error as Error).message}`)
  }
  const body = (await response.json().catch(() => ({}))) as { error?: Record<string, unknown> }
  if (!response.ok)
    throw new ServerError({ code: `HTTP_${response.status}`, message: `GET /metadata: HTTP ${response.status}`, ...body.error })
  return specFromMetadata(body)
}
