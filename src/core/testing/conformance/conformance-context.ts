/**
 * @module core/testing/conformance: what every group of conformance cases reads (the env factory, its
 * spec, the resets, seeds and sizes) and the seeded play that the determinism and fuzz cases replay.
 */
import type { AnyEnv, EnvSpec, Observation, ResetParams, StepResult, ToolCall } from '../../env/env-api.js'
import { PythonRandom } from '../../python/python-random.js'
import { CallSampler } from '../call-sampler.js'
import { safeStep, serialize } from './conformance-checks.js'

export interface ConformanceOptions<O extends Observation = Observation> {
  /** A fresh env with the default wrappers (as `makeEnv` builds it). */
  createEnv: () => AnyEnv<O>
  /** Resets to exercise: a few seeds and option sets. */
  resets: readonly ResetParams[]
  /** Random calls in the fuzz case (the issue asks for at least 10,000 per env). */
  fuzzCalls?: number
  /** Calls per replayed trajectory in the determinism case. */
  trajectoryLength?: number
  seed?: number
  /** Case name → written reason to skip it. */
  skip?: Record<string, string>
}

export interface ConformanceCase {
  name: string
  skipReason?: string
  run(): Promise<void>
}

export interface ConformanceContext<O extends Observation = Observation> {
  createEnv: () => AnyEnv<O>
  spec: EnvSpec
  /** The resets given, or the spec's default seed when none are. */
  resets: readonly ResetParams[]
  seed: number
  fuzzCalls: number
  trajectoryLength: number
}

/** The options with their defaults filled in; reads the spec from one env. */
export function conformanceContext<O extends Observation>(options: ConformanceOptions<O>): ConformanceContext<O> {
  const spec = options.createEnv().spec
  return {
    createEnv: options.createEnv,
    spec,
    resets: options.resets.length > 0 ? options.resets : [{ seed: spec.defaultSeed }],
    seed: options.seed ?? 20261129,
    fuzzCalls: options.fuzzCalls ?? 10_000,
    trajectoryLength: options.trajectoryLength ?? 40,
  }
}

/** Plays a seeded mix of plausible and malformed calls, resetting at episode ends; returns a transcript. */
export async function playTranscript<O extends Observation>(
  spec: EnvSpec,
  play: {
    env: AnyEnv<O>
    reset: ResetParams
    calls: number
    rngSeed: number
    onStep?: (result: StepResult<O>, call: ToolCall) => void
  },
): Promise<string[]> {
  const { env, reset } = play
  const rng = new PythonRandom(play.rngSeed)
  const sampler = new CallSampler(spec, rng)
  const transcript: string[] = []
  let current = await env.reset(reset)
  transcript.push(serialize(current), await env.render(current.observation))
  let observation: O = current.observation
  for (let index = 0; index < play.calls; index++) {
    const call = rng.random() < 0.7 ? sampler.plausible(observation) : sampler.malformed(observation)
    const result = await safeStep(env, call, 'fuzz')
    play.onStep?.(result, call)
    transcript.push(serialize(call), serialize(result), await env.render(result.observation))
    observation = result.observation
    if (result.terminated || result.truncated) {
      transcript.push(serialize(await env.state()))
      current = await env.reset(reset)
      transcript.push(serialize(current))
      observation = current.observation
    }
  }
  transcript.push(serialize(await env.state()))
  return transcript
}
