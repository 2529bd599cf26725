/**
 * Each Arena env owns its random streams (decision 0070): two envs (v2 or v3) played in any interleaving of
 * their resets and steps — one call at a time, or across awaits in any order a scheduler picks — see
 * exactly what each sees when played alone.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Env } from '../src/core/env/env-api.js'
import { difficulties } from '../src/envs/releaseops/arena/difficulty.js'
import { familiesV2 } from '../src/envs/releaseops/arena/families/index.js'
import { phaseAwareRulePolicy } from '../src/envs/releaseops/arena/policies/phase-aware-rule.js'
import type { ReleaseOpsObservation } from '../src/envs/releaseops/arena/releaseops-env-base.js'
import { ReleaseOpsV2Env } from '../src/envs/releaseops/v2/releaseops-env.js'
import { familiesV3 } from '../src/envs/releaseops/v3/families/index.js'
import { ReleaseOpsV3Env } from '../src/envs/releaseops/v3/releaseops-env.js'

interface Program {
  version: 'v2' | 'v3'
  episodes: { seed: number; family: string; difficulty: string; steps: number }[]
}

const episodesOf = (families: readonly string[]) =>
  fc.array(
    fc.record({
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      family: fc.constantFrom(...families),
      difficulty: fc.constantFrom(...difficulties),
      steps: fc.integer({ min: 0, max: 12 }),
    }),
    { minLength: 1, maxLength: 4 },
  )
const program: fc.Arbitrary<Program> = fc.oneof(
  fc.record({ version: fc.constant('v2' as const), episodes: episodesOf(familiesV2) }),
  fc.record({ version: fc.constant('v3' as const), episodes: episodesOf(familiesV3) }),
)

const envFor = (version: Program['version']): Env<ReleaseOpsObservation> =>
  version === 'v2' ? new ReleaseOpsV2Env() : new ReleaseOpsV3Env()

/** One env call per `next()`: resets and the baseline's steps, each yielding what the env answered as text. */
function* play({ version, episodes }: Program): Generator<string, void> {
  const env = envFor(version)
  const policy = phaseAwareRulePolicy()
  for (const { seed, family, difficulty, steps } of episodes) {
    const reset = env.reset({ seed, options: { family, difficulty } })
    yield `reset ${env.render(reset.observation)} ${JSON.stringify(reset.info)}`
    const episode = policy.start({ observation: reset.observation, info: reset.info, spec: env.spec, env })
    let observation = reset.observation
    for (let step = 0; step < steps; step++) {
      const call = episode.act(observation)
      if (call === null) break
      const result = env.step(call)
      yield `step ${env.render(result.observation)} ${result.reward} ${result.terminated} ${result.truncated}`
      if (result.terminated || result.truncated) break
      observation = result.observation
    }
  }
}

const alone = (played: Program) => [...play(played)]

describe('two Arena envs interleaved see what each sees alone', () => {
  it('one call at a time, in any order', () => {
    fc.assert(
      fc.property(program, program, fc.array(fc.boolean(), { minLength: 1, maxLength: 24 }), (a, b, schedule) => {
        const runs = [play(a), play(b)]
        const seen: string[][] = [[], []]
        const finished = [false, false]
        for (let turn = 0; !(finished[0] && finished[1]); turn++) {
          const which = finished[0] ? 1 : finished[1] ? 0 : schedule[turn % schedule.length] ? 0 : 1
          const next = (runs[which] as Generator<string, void>).next()
          if (next.done) finished[which] = true
          else seen[which]?.push(next.value)
        }
        expect(seen).toEqual([alone(a), alone(b)])
      }),
      { numRuns: 40 },
    )
  })

  it('across awaits, in any order the scheduler picks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), program, program, async (scheduler, a, b) => {
        const drive = async (played: Program) => {
          const seen: string[] = []
          const run = play(played)
          for (;;) {
            await scheduler.schedule(Promise.resolve(), played.version)
            const next = run.next()
            if (next.done) return seen
            seen.push(next.value)
          }
        }
        const both = Promise.all([drive(a), drive(b)])
        await scheduler.waitAll()
        expect(await both).toEqual([alone(a), alone(b)])
      }),
      { numRuns: 40 },
    )
  })
})
