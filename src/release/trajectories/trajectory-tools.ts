/**
 * @module release/trajectories: the tools a trajectory row carries: the env's tools as a VeRL rollout shows
 * them to the model (`verlVisibleTools`: VeRL's pydantic tool schema keeps type, description and enum per
 * property). SFT rows, RL prompts and the rollout gate so render the same tool block byte for byte; the
 * full JSON Schemas (bounds, `additionalProperties`) stay in the env and in VeRL's `tool_schemas.json`.
 */
import { envTools } from '../../agent/episode-prompt.js'
import type { ChatTool } from '../../chat/chat-message.js'
import type { EnvSpec } from '../../core/env/env-api.js'
import { verlVisibleTools } from '../../eval/gate/verl-visible-tools.js'

export function trajectoryTools(spec: EnvSpec): ChatTool[] {
  return verlVisibleTools(envTools(spec))
}

/**
 * The tools whose JSON Schemas type the tool-call `arguments` struct: the env's full schema of each tool the
 * rows carry (the reduced view has no `items` to type an array by), the tool itself when the env has none.
 */
export function argumentSchemaTools(tools: readonly ChatTool[], spec: EnvSpec): ChatTool[] {
  const full = new Map(envTools(spec).map((tool) => [tool.function.name, tool]))
  return tools.map((tool) => full.get(tool.function.name) ?? tool)
}
