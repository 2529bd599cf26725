/**
 * @module agent: one episode of a synchronous policy against an in-process env. The loop ends when
 * the env terminates or truncates it, when a stop condition holds, or when the policy returns null.
 */
import type { Env, EpisodeInfo, Observation, ResetParams, StepResult, ToolCall } from '../core/env/env-api.js'
import type { Policy } from '../core/policy/policy.js'
import { isStopConditionMet, isTerminated, isTruncated, type LoopStep, type StopCondition } from './stop-condition.js'

export interface StepRecord {
  call: ToolCall
  reward: number
  terminated: boolean
  truncated: boolean
  /** `error.code` when the call was bad. */
  error?: string
}

export type EpisodeEnd = 'terminated' | 'truncated' | 'stop_condition' | 'policy_stopped'

export interface PolicyEpisodeResult {
  /** The episode total (`info.cumulative_reward` of the last step). */
  reward: number
  terminated: boolean
  truncated: boolean
  end: EpisodeEnd
  stepCount: number
  resetInfo: EpisodeInfo
  info: EpisodeInfo
  steps?: StepRecord[]
}

export interface RunPolicyEpisodeOptions<O extends Observation> {
  env: Env<O>
  policy: Policy<O>
  reset: ResetParams
  /** Extra stop conditions; the env's terminated/truncated always stop the loop. */
  stopWhen?: readonly StopCondition[]
  /** Keep a record per step (off for throughput runs). */
  recordSteps?: boolean
}

const envStops = [isTerminated(), isTruncated()]

export function runPolicyEpisode<O extends Observation>(options: RunPolicyEpisodeOptions<O>): PolicyEpisodeResult {
  const { env, policy } = options
  const reset = env.reset(options.reset)
  const episode = policy.start({ observation: reset.observation, info: reset.info, spec: env.spec, env })
  const stops = options.stopWhen ? [...envStops, ...options.stopWhen] : envStops
  const records: StepRecord[] | undefined = options.recordSteps ? [] : undefined
  const loopSteps: LoopStep[] = []
  let observation = reset.observation
  let last: StepResult<O> | undefined
  let end: EpisodeEnd = 'policy_stopped'
  for (;;) {
    const call = episode.act(observation)
    if (call === null) break
    last = env.step(call)
    observation = last.observation
    loopSteps.push({ call, result: last })
    records?.push({
      call,
      reward: last.reward,
      terminated: last.terminated,
      truncated: last.truncated,
      ...(last.observation.error ? { error: last.observation.error.code } : {}),
    })
    if (isStopConditionMet(stops, loopSteps)) {
      end = last.terminated ? 'terminated' : last.truncated ? 'truncated' : 'stop_condition'
      break
    }
  }
  const info = last?.info ?? reset.info
  return {
    reward: info.cumulative_reward,
    terminated: last?.terminated ?? false,
    truncated: last?.truncated ?? false,
    end,
    stepCount: loopSteps.length,
    resetInfo: reset.info,
    info,
    ...(records ? { steps: records } : {}),
  }
}
