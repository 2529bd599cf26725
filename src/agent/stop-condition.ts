/** @module agent: stop conditions for the agent loop are predicates over the steps so far. */
import type { StepResult, ToolCall } from '../core/env/env-api.js'

export interface LoopStep {
  call: ToolCall
  result: StepResult
}

export type StopCondition = (state: { steps: readonly LoopStep[] }) => boolean

/** Stop after `count` steps. */
export const isStepCount =
  (count: number): StopCondition =>
  ({ steps }) =>
    steps.length >= count

/** Stop once the env says the episode is over (terminated). */
export const isTerminated =
  (): StopCondition =>
  ({ steps }) =>
    steps.at(-1)?.result.terminated === true

/** Stop once the env truncated the episode. */
export const isTruncated =
  (): StopCondition =>
  ({ steps }) =>
    steps.at(-1)?.result.truncated === true

/** Stop right after a call to one of these tools. */
export const hasToolCall =
  (...names: string[]): StopCondition =>
  ({ steps }) => {
    const last = steps.at(-1)
    return last !== undefined && names.includes(last.call.name)
  }

export function isStopConditionMet(conditions: readonly StopCondition[], steps: readonly LoopStep[]): boolean {
  return conditions.some((condition) => condition({ steps }))
}
