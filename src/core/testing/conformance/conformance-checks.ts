/** @module core/testing/conformance: the checks the conformance cases share, and the error a failed one throws. */
import type { AnyEnv, EnvSpec, Observation, StepResult, ToolCall } from '../../env/env-api.js'
import { ReleaseOpsError } from '../../errors/release-ops-error.js'
import { isJsonValue } from '../../json/json-value.js'

export class ConformanceError extends ReleaseOpsError {
  constructor(check: string, message: string, details?: Record<string, unknown>) {
    super({ code: 'conformance_failed', message: `[${check}] ${message}`, ...(details ? { details } : {}) })
    this.name = 'ConformanceError'
  }
}

export function check(condition: unknown, name: string, message: string, details?: Record<string, unknown>): asserts condition {
  if (!condition) throw new ConformanceError(name, message, details)
}

/** A step result's shape: finite reward, boolean flags, plain JSON; a bad call costs the env's penalty. */
export function checkStepShape(name: string, result: StepResult, spec: EnvSpec, call: ToolCall): void {
  // A call that ends the episode unfinished also carries the env's unfinished-episode reward.
  const unfinished = result.truncated && !result.terminated ? (spec.unfinishedEpisodeReward ?? 0) : 0
  const invalidReward = spec.invalidActionReward + unfinished
  check(typeof result.reward === 'number' && Number.isFinite(result.reward), name, 'reward must be a finite number')
  check(typeof result.terminated === 'boolean' && typeof result.truncated === 'boolean', name, 'flags must be booleans')
  check(Number.isFinite(result.info.cumulative_reward), name, 'info.cumulative_reward must be finite')
  check(Number.isInteger(result.info.step_count), name, 'info.step_count must be an integer')
  check(isJsonValue(result.observation), name, 'observation must be plain JSON', { call })
  check(isJsonValue(result.info), name, 'info must be plain JSON', { call })
  const error = result.observation.error
  if (error !== undefined) {
    check(typeof error.code === 'string' && error.code.length > 0, name, 'error.code must be a non-empty string', { call })
    check(typeof error.message === 'string', name, 'error.message must be a string', { call })
    check(result.reward === invalidReward, name, `a bad call must cost ${invalidReward}, got ${result.reward}`, { call, error })
  }
}

export async function safeStep<O extends Observation>(env: AnyEnv<O>, call: ToolCall, name: string): Promise<StepResult<O>> {
  try {
    return await env.step(call)
  } catch (error) {
    throw new ConformanceError(name, `step threw instead of returning an error observation: ${String(error)}`, { call })
  }
}

/** The code a call threw (undefined when it did not throw, or threw without one). */
export async function thrownCode(call: () => unknown): Promise<unknown> {
  try {
    await call()
  } catch (error) {
    return (error as { code?: unknown }).code
  }
  return undefined
}

export const serialize = (value: unknown) => JSON.stringify(value)
