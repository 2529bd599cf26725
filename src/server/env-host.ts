/**
 * @module server: one served env: its registration plus everything the wire derives from the spec
 * (tool list, `/schema`, `/metadata`, reset-argument mapping). Built once per env at start-up.
 */
import type { Env, ResetParams } from '../core/env/env-api.js'
import type { EnvRegistration, EnvRegistry } from '../core/registry/env-registry.js'
import { toolParametersSchema } from '../core/tools/define-tool.js'
import { embeddedJsonSchema, envErrorSchema, replyMetadataSchema, stateReplySchema } from '../core/wire/openenv-reply.js'
import { packageVersion } from './package-version.js'
import type { ResetKwargs } from './wire/wire-schemas.js'

export interface WireTool {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

export interface EnvHostOptions {
  registry: EnvRegistry
  envId: string
  /** Whether this env is also served at the root. */
  isDefault: boolean
}

/** `/schema`'s observation and state parts, derived from the one wire declaration. */
const metadataJsonSchema = embeddedJsonSchema(replyMetadataSchema)
const envErrorJsonSchema = embeddedJsonSchema(envErrorSchema)
const stateJsonSchema = embeddedJsonSchema(stateReplySchema, 'input')

export class EnvHost {
  readonly id: string
  readonly isDefault: boolean
  readonly registration: EnvRegistration
  readonly tools: readonly WireTool[]
  private readonly registry: EnvRegistry
  private cachedSchemas: Record<string, unknown> | undefined

  constructor(options: EnvHostOptions) {
    this.registry = options.registry
    this.id = options.envId
    this.isDefault = options.isDefault
    this.registration = options.registry.get(options.envId)
    this.tools = this.registration.spec.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toolParametersSchema(tool),
    }))
  }

  get spec() {
    return this.registration.spec
  }

  /** A fresh env with the default wrappers (step limit), as `makeEnv` builds it. */
  createEnv(): Env {
    return this.registry.make(this.id)
  }

  /** Where this env's routes live: `/envs/{id}` (and `''` too for the default env). */
  get prefix(): string {
    return `/envs/${this.id}`
  }

  /** OpenEnv reset kwargs → our `{seed, options}`: non-reserved fields are options, `options` wins. */
  resetParams(kwargs: ResetKwargs | undefined): ResetParams {
    const { seed, episode_id: _episodeId, options, ...rest } = kwargs ?? {}
    const merged = Object.keys(rest).length > 0 || options !== undefined ? { ...rest, ...options } : undefined
    return { ...(seed === undefined ? {} : { seed }), ...(merged === undefined ? {} : { options: merged }) }
  }

  /** `GET /metadata`: OpenEnv's `EnvironmentMetadata` plus what a client needs to rebuild the spec. */
  metadata(): Record<string, unknown> {
    const spec = this.spec
    return {
      name: spec.id,
      description: spec.description,
      version: packageVersion,
      author: 'ReleaseOps',
      env_id: spec.id,
      is_default: this.isDefault,
      max_episode_steps: spec.maxEpisodeSteps,
      deterministic: spec.deterministic,
      invalid_action_reward: spec.invalidActionReward,
      ...(spec.unfinishedEpisodeReward === undefined ? {} : { unfinished_episode_reward: spec.unfinishedEpisodeReward }),
      default_seed: spec.defaultSeed,
      tools: this.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })),
      dataset_splits: this.registration.dataset?.splits ?? [],
    }
  }

  /** `GET /schema`: the action as one exact variant per tool (plus OpenEnv's MCP actions), observation, state. */
  schemas(): Record<string, unknown> {
    this.cachedSchemas ??= {
      action: {
        title: `${this.id} action`,
        description:
          'One tool call {tool, arguments}, or an OpenEnv MCP action. Calls that match no variant are still accepted and answered with an error observation and the invalid-action penalty (bad calls are data).',
        oneOf: [
          ...this.tools.map((tool) => ({
            type: 'object',
            title: tool.name,
            description: tool.description,
            additionalProperties: false,
            required: ['tool', 'arguments'],
            properties: { tool: { const: tool.name }, arguments: tool.inputSchema, metadata: { type: 'object' } },
          })),
          {
            type: 'object',
            title: 'list_tools',
            additionalProperties: false,
            required: ['type'],
            properties: { type: { const: 'list_tools' }, metadata: { type: 'object' } },
          },
          {
            type: 'object',
            title: 'call_tool',
            additionalProperties: false,
            required: ['type', 'tool_name'],
            properties: {
              type: { const: 'call_tool' },
              tool_name: { enum: this.tools.map((tool) => tool.name) },
              arguments: { type: 'object' },
              metadata: { type: 'object' },
            },
          },
        ],
      },
      observation: {
        type: 'object',
        title: `${this.id} observation`,
        description: 'The env observation (plain JSON) with OpenEnv metadata kept, as sent inside step and reset replies.',
        additionalProperties: true,
        properties: { metadata: metadataJsonSchema, error: envErrorJsonSchema },
      },
      state: stateJsonSchema,
    }
    return this.cachedSchemas
  }
}

/** Every registered env, the default one marked; the default is looked up, never hard-coded. */
export function createEnvHosts(options: { registry: EnvRegistry; defaultEnvId: string }): EnvHost[] {
  if (!options.registry.has(options.defaultEnvId)) options.registry.get(options.defaultEnvId)
  return options.registry
    .ids()
    .map((envId) => new EnvHost({ registry: options.registry, envId, isDefault: envId === options.defaultEnvId }))
}
