/**
 * @module server/wire: OpenEnv's `{observation, reward, done}` payload with `metadata` kept (OpenEnv #616):
 * `metadata = {terminated, truncated, info, text, error?}` sits both at the top level (the shape OpenEnv's
 * fix reads) and inside `observation` (where older generic and typed clients find it).
 * Built by string concatenation on the hot path: the metadata is serialised once. What the bytes hold is
 * declared once, in `core/wire/openenv-reply.ts` (tests parse these payloads with it).
 */
import type { EpisodeInfo, Observation } from '../../core/env/env-api.js'
import type { ReplyMetadata } from '../../core/wire/openenv-reply.js'
import type { WireTool } from '../env-host.js'

export interface ObservationPayloadInput {
  observation: Observation
  /** The step reward; `null` after a reset (no step happened). */
  reward: number | null
  terminated: boolean
  truncated: boolean
  info: EpisodeInfo
  /** `env.render(observation)`: what a model sees. */
  text: string
}

function metadataOf(input: ObservationPayloadInput): ReplyMetadata {
  const metadata: ReplyMetadata = {
    terminated: input.terminated,
    truncated: input.truncated,
    info: input.info,
    text: input.text,
  }
  if (input.observation.error !== undefined) metadata.error = input.observation.error
  return metadata
}

/** Appends `"metadata":<json>` as the last key of a serialised object. */
function withMetadata(objectJson: string, metadataJson: string): string {
  return objectJson.length > 2 ? `${objectJson.slice(0, -1)},"metadata":${metadataJson}}` : `{"metadata":${metadataJson}}`
}

/**
 * The payload as JSON text; `wireObservation` replaces the env observation on the wire (MCP shapes).
 * An env key named `metadata` is replaced (OpenEnv reserves it).
 */
export function observationPayloadJson(
  input: ObservationPayloadInput,
  wireObservation: Record<string, unknown> = input.observation,
): string {
  const metadataJson = JSON.stringify(metadataOf(input))
  const observation = Object.hasOwn(wireObservation, 'metadata')
    ? Object.fromEntries(Object.entries(wireObservation).filter(([key]) => key !== 'metadata'))
    : wireObservation
  const observationJson = withMetadata(JSON.stringify(observation), metadataJson)
  const reward = input.reward === null ? 'null' : JSON.stringify(input.reward)
  const done = input.terminated || input.truncated
  return `{"observation":${observationJson},"reward":${reward},"done":${done},"metadata":${metadataJson}}`
}

/** OpenEnv `ListToolsObservation` (snake_case `input_schema`, as OpenEnv's `Tool` model has it). */
export function listToolsPayloadJson(tools: readonly WireTool[]): string {
  const observation = {
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })),
  }
  return JSON.stringify({ observation, reward: null, done: false })
}

/**
 * OpenEnv `CallToolObservation` for a `call_tool` action: the MCP result (text content, the env
 * observation as structured content, `data` = the text). A bad call (unknown tool, bad arguments,
 * impossible action) is a *tool* failure: `result.is_error` is true, the text carries the message and the
 * penalty is in `reward`. `error` stays null: OpenEnv keeps it (a strict `ToolError {error_type, message}`)
 * for framework failures, and its `MCPToolClient` raises on it (decision 0043).
 */
export function callToolPayloadJson(toolName: string, input: ObservationPayloadInput): string {
  const observation: Record<string, unknown> = {
    tool_name: toolName,
    result: {
      content: [{ type: 'text', text: input.text }],
      structured_content: input.observation,
      data: input.text,
      is_error: input.observation.error !== undefined,
    },
    error: null,
  }
  return observationPayloadJson(input, observation)
}

/** `{"type":<type>,"data":<json>}` plus the echoed `request_id`, without re-serialising `data`. */
export function wsEnvelope(type: string, dataJson: string, requestId: string | number | undefined): string {
  const tail = requestId === undefined ? '}' : `,"request_id":${JSON.stringify(requestId)}}`
  return `{"type":"${type}","data":${dataJson}${tail}`
}
