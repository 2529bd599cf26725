/**
 * @module train: scripted trajectories for supervised warm-up, recorded through the one agent loop
 * (`runEpisode` + `policyAgent`) in the native message format, so a model is warmed up on exactly the
 * prompts, tool schemas and tool results it later meets in GRPO. Policies take turns over the rows.
 */
import { policyAgent } from '../agent/policy-agent.js'
import { runEpisode } from '../agent/run-episode.js'
import type { ChatMessage, ChatTool } from '../chat/chat-message.js'
import type { DatasetRow } from '../core/env/env-dataset.js'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import type { JsonObject } from '../core/json/json-value.js'
import type { Policy } from '../core/policy/policy.js'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import type { PolicyRegistry } from '../core/registry/policy-registry.js'

export interface RecordTrajectoriesOptions {
  envId: string
  envs: EnvRegistry
  policies: PolicyRegistry
  /** Policies used in turn: row i is played by `policyNames[i % n]`. */
  policyNames: readonly string[]
  rows: readonly DatasetRow[]
  /** Assistant turns kept per episode at most (default: the whole episode). */
  maxTurns?: number
  /** Policies not in the registry (e.g. a warm-up teacher), by name; they may appear in `policyNames`. */
  extraPolicies?: Readonly<Record<string, () => Policy>>
}

export interface TrajectoryLine {
  policy: string
  row: JsonObject
  reward: number
  end: string
  messages: ChatMessage[]
  tools: ChatTool[]
}

export async function* recordTrajectories(options: RecordTrajectoriesOptions): AsyncGenerator<TrajectoryLine> {
  const registration = options.envs.get(options.envId)
  const dataset = registration.dataset
  if (!dataset) {
    throw new InvalidInputError({
      code: 'no_dataset',
      message: `Env ${options.envId} has no dataset to turn rows into resets.`,
      issues: [],
    })
  }
  if (options.policyNames.length === 0) {
    throw new InvalidInputError({ code: 'no_policy', message: 'Name at least one policy to record.', issues: [] })
  }
  const extra = options.extraPolicies ?? {}
  const create = (name: string): Policy => extra[name]?.() ?? options.policies.create(options.envId, name)
  for (const name of options.policyNames) if (!extra[name]) options.policies.get(options.envId, name)
  for (const [index, row] of options.rows.entries()) {
    const policy = options.policyNames[index % options.policyNames.length] as string
    const result = await runEpisode({
      env: options.envs.make(options.envId),
      agent: policyAgent(create(policy)),
      reset: dataset.toResetParams(row),
      prompt: row.prompt,
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    })
    const { prompt: _prompt, ...rest } = row
    yield {
      policy,
      row: rest,
      reward: result.reward,
      end: result.end,
      messages: result.trajectory.messages,
      tools: result.trajectory.tools,
    }
  }
}
