/**
 * @module core/wrappers: the base of env wrappers (Gymnasium's `Wrapper`): everything is delegated to
 * the wrapped env; a wrapper overrides what it changes (`reset`, `step`).
 */
import type { Env, Observation, ResetParams, ResetResult, StepResult, ToolCall } from '../env/env-api.js'
import type { JsonObject } from '../json/json-value.js'

export abstract class EnvWrapper<O extends Observation = Observation> implements Env<O> {
  constructor(readonly inner: Env<O>) {}

  get spec() {
    return this.inner.spec
  }

  /** The env under every wrapper. */
  get unwrapped(): Env<O> {
    const inner = this.inner as Env<O> & { unwrapped?: Env<O> }
    return inner.unwrapped ?? inner
  }

  abstract reset(params?: ResetParams): ResetResult<O>

  abstract step(call: ToolCall): StepResult<O>

  render(observation: O): string {
    return this.inner.render(observation)
  }

  state(): JsonObject {
    return this.inner.state()
  }

  close(): void {
    this.inner.close?.()
  }
}
