/**
 * The oracle test shared by releaseops-v2 (issue 3, "must show") and releaseops-v3 (issue 14): every
 * episode is winnable, by construction and by check. The registered oracle wins every row of train and
 * eval, every combination of a family's hidden facts over a further sample, and no baseline beats it.
 */
import { describe, expect, it } from 'vitest'
import { runPolicyEpisode } from '../../src/agent/run-policy-episode.js'
import { envRegistry, makeEnv, policyRegistry } from '../../src/envs/index.js'
import { difficulties } from '../../src/envs/releaseops/arena/difficulty.js'
import { badValue } from '../../src/envs/releaseops/arena/facts.js'
import type { VersionUnderTest } from './version-under-test.js'

export interface OracleSpec<F extends string> extends VersionUnderTest<F> {
  /** The version's non-privileged policies, each of which the oracle must match or beat. */
  baselines: readonly string[]
}

export function describeOracleWinnability<F extends string>(spec: OracleSpec<F>): void {
  const { envId, families, archetypeMixes, buildScenario } = spec
  const dataset = envRegistry.get(envId).dataset!

  describe(`${envId} oracle`, () => {
    it(`wins every episode of train and eval: 2,900 seeds, all families, first draw, at its proven reward`, () => {
      const rows = [...dataset.rows('train'), ...dataset.rows('eval')]
      expect(rows.length).toBeGreaterThanOrEqual(2000)
      expect(new Set(rows.map((row) => row.family))).toEqual(new Set(families))
      const env = makeEnv(envId)
      const oracle = policyRegistry.create(envId, 'oracle')
      const baselines = spec.baselines.map((name) => policyRegistry.create(envId, name))
      const outcomes = new Map<string, number>()
      for (const row of rows) {
        const reset = dataset.toResetParams(row)
        const result = runPolicyEpisode({ env, policy: oracle, reset })
        const hidden = (env as unknown as { unwrapped: { hiddenState(): Record<string, unknown> } }).unwrapped.hiddenState()
        expect(result.info.terminal_reason, JSON.stringify(row)).toBe('safe_ship')
        expect(hidden.generation_attempt).toBe(0)
        expect(result.reward).toBeCloseTo((hidden.oracle as { reward: number }).reward, 12)
        expect(result.info.metrics).toMatchObject({ invalid_actions: 0, false_blocks: 0 })
        outcomes.set(String(result.info.terminal_reason), (outcomes.get(String(result.info.terminal_reason)) ?? 0) + 1)
        for (const baseline of baselines) {
          const other = runPolicyEpisode({ env, policy: baseline, reset })
          expect(other.reward, `${baseline.name} ${JSON.stringify(row)}`).toBeLessThanOrEqual(result.reward + 1e-9)
        }
      }
      expect(outcomes).toEqual(new Map([['safe_ship', rows.length]]))
    })

    it('wins every combination of the hidden facts a family can draw (winnability never depends on the facts)', () => {
      let builds = 0
      for (const family of families) {
        for (const difficulty of difficulties) {
          for (let seed = 0; seed < 25; seed++) {
            const archetypeMix = archetypeMixes[seed % archetypeMixes.length] as string
            const hazards = buildScenario({ family, seed, difficulty, archetypeMix }).scenario.hazards
            for (let mask = 0; mask < 1 << hazards.length; mask++) {
              const factOverrides = Object.fromEntries(
                hazards.map((fact, index) => [fact, mask & (1 << index) ? badValue[fact] : !badValue[fact]]),
              )
              const proven = buildScenario({ family, seed, difficulty, archetypeMix, factOverrides })
              expect(proven.scenario.attempt, JSON.stringify({ family, seed, difficulty, factOverrides })).toBe(0)
              expect(proven.oracle.terminalReason).toBe('safe_ship')
              builds++
            }
          }
        }
      }
      expect(builds).toBeGreaterThan(2000)
    })

    it('is registered as privileged, so reports show it as the ceiling, not a baseline', () => {
      expect(policyRegistry.get(envId, 'oracle').privileged).toBe(true)
      for (const name of spec.baselines) expect(policyRegistry.get(envId, name).privileged).toBeFalsy()
    })
  })
}
