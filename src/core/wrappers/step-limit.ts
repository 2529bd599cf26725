/**
 * @module core/wrappers: the step limit. Truncates an episode after `maxEpisodeSteps` calls and
 * enforces order: no step before reset, none after truncation (Gymnasium's TimeLimit + OrderEnforcing).
 */
import type { Env, Observation, ResetParams, ResetResult, StepResult, ToolCall } from '../env/env-api.js'
import { ResetNeededError } from '../errors/reset-needed-error.js'
import { boundEchoedInput } from './bound-echoed-input.js'
import { EnvWrapper } from './env-wrapper.js'

export class StepLimit<O extends Observation = Observation> extends EnvWrapper<O> {
  private steps = 0
  private running = false

  constructor(
    inner: Env<O>,
    readonly maxEpisodeSteps: number,
  ) {
    super(inner)
    if (!Number.isInteger(maxEpisodeSteps) || maxEpisodeSteps < 1) {
      throw new RangeError(`maxEpisodeSteps must be a positive integer, got ${maxEpisodeSteps}`)
    }
  }

  reset(params?: ResetParams): ResetResult<O> {
    const result = this.inner.reset(params)
    this.steps = 0
    this.running = true
    return result
  }

  step(call: ToolCall): StepResult<O> {
    if (!this.running) throw new ResetNeededError()
    // Bad calls echo their input; a huge one is cut so it cannot flood the agent's context.
    const result = boundEchoedInput(call, this.inner.step(call))
    this.steps++
    if (result.truncated) {
      this.running = false
    } else if (!result.terminated && this.steps >= this.maxEpisodeSteps) {
      this.running = false
      // The live total already counts the unfinished-episode reward; the step that ends the episode pays it.
      const reward = result.reward + (this.inner.spec.unfinishedEpisodeReward ?? 0)
      return { ...result, reward, truncated: true, info: { ...result.info, truncated_reason: 'step_limit' } }
    }
    return result
  }
}

/** Wraps `env` in a step limit. */
export function withStepLimit<O extends Observation>(env: Env<O>, maxEpisodeSteps: number): StepLimit<O> {
  return new StepLimit(env, maxEpisodeSteps)
}
