/**
 * @module server/session: reset and step a session and answer in OpenEnv's payload shape. Shared by
 * `/ws`, the stateless HTTP routes and MCP, so every transport returns the same bytes for the same episode.
 */
import type { z } from 'zod'
import type { ResetResult, StepResult, ToolCall } from '../../core/env/env-api.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import {
  callToolPayloadJson,
  listToolsPayloadJson,
  type ObservationPayloadInput,
  observationPayloadJson,
} from '../wire/observation-payload.js'
import { describeIssues, issuesFromZod } from '../wire/validation-issues.js'
import { type Action, type ResetKwargs, resetKwargsSchema } from '../wire/wire-schemas.js'
import type { EnvSession } from './env-session.js'

export type ParsedAction = { kind: 'tool' | 'call_tool'; call: ToolCall } | { kind: 'list_tools' }

/** Parses with `schema`; failures become `InvalidInputError` (`validation_error`) with paths under `prefix`. */
export function parseWire<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  prefix: readonly string[] = [],
): z.output<Schema> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issues = issuesFromZod(parsed.error.issues, prefix)
  throw new InvalidInputError({ code: 'validation_error', message: describeIssues(issues), issues })
}

export function toParsedAction(action: Action): ParsedAction {
  if (action.type === 'list_tools') return { kind: 'list_tools' }
  if (action.type === 'call_tool') {
    return { kind: 'call_tool', call: { name: action.tool_name as string, arguments: action.arguments ?? {} } }
  }
  return { kind: 'tool', call: { name: action.tool as string, arguments: action.arguments } }
}

export function parseResetKwargs(value: unknown, prefix: readonly string[] = []): ResetKwargs | undefined {
  return value === undefined ? undefined : parseWire(resetKwargsSchema, value, prefix)
}

export function resetInput(session: EnvSession, result: ResetResult): ObservationPayloadInput {
  const text = session.render(result.observation)
  session.lastText = text
  // 0.0 after a reset, as OpenEnv's envs report it (echo_env); no step reward happened.
  return { observation: result.observation, reward: 0, terminated: false, truncated: false, info: result.info, text }
}

export function stepInput(session: EnvSession, result: StepResult): ObservationPayloadInput {
  const text = session.render(result.observation)
  session.lastText = text
  return { ...result, text }
}

/** Resets the session's env; returns the payload JSON. Bad options throw `InvalidInputError`. */
export function resetSession(session: EnvSession, kwargs: ResetKwargs | undefined): string {
  return observationPayloadJson(resetInput(session, session.reset(kwargs)))
}

/** Runs one action; returns the payload JSON. A bad tool call is an error observation, not a throw. */
export function stepSession(session: EnvSession, action: ParsedAction): string {
  if (action.kind === 'list_tools') return listToolsPayloadJson(session.host.tools)
  const input = stepInput(session, session.step(action.call))
  return action.kind === 'call_tool' ? callToolPayloadJson(String(action.call.name), input) : observationPayloadJson(input)
}
