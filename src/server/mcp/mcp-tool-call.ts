/**
 * @module server/mcp: an env step as an MCP `tools/call` result. The text content is what a model sees
 * (`env.render`); the structured content carries the observation, reward and episode flags. A bad call
 * stays data: the env's error observation (with its penalty) comes back with `isError: true`.
 */
import type { Observation } from '../../core/env/env-api.js'
import { ResetNeededError } from '../../core/errors/reset-needed-error.js'
import type { EnvHost } from '../env-host.js'
import type { EnvSession } from '../session/env-session.js'
import { stepInput } from '../session/session-operations.js'

export interface McpToolResult {
  content: { type: 'text'; text: string }[]
  structuredContent: Record<string, unknown>
  isError: boolean
  [key: string]: unknown
}

export function callToolOnSession(session: EnvSession, name: string, toolArguments: unknown): McpToolResult {
  try {
    const input = stepInput(session, session.step({ name, arguments: toolArguments ?? {} }))
    return {
      content: [{ type: 'text', text: input.text }],
      structuredContent: {
        observation: input.observation as Observation,
        reward: input.reward,
        done: input.terminated || input.truncated,
        terminated: input.terminated,
        truncated: input.truncated,
        info: input.info,
      },
      isError: input.observation.error !== undefined,
      // FastMCP's `data` (the text): OpenEnv's MCPToolClient returns it in production mode.
      data: input.text,
    }
  } catch (error) {
    if (!ResetNeededError.isInstance(error)) throw error
    const message = `The episode is over (step ${session.stepCount}); start a new session to play again.`
    return {
      content: [{ type: 'text', text: JSON.stringify({ error: { code: error.code, message } }) }],
      structuredContent: { error: { code: error.code, message }, done: true },
      isError: true,
      data: message,
    }
  }
}

/** MCP `Tool` descriptors (camelCase `inputSchema`, as the MCP schema has it). */
export function mcpTools(host: EnvHost): { name: string; description: string; inputSchema: unknown }[] {
  return host.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }))
}
