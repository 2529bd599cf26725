/**
 * Every releaseops-v3 episode is winnable, by construction and by check (issue 14): the registered
 * oracle wins every row of train and eval (2,900 generated seeds over all nine families), every
 * combination of a family's hidden facts over a further sample, and is never beaten by a baseline.
 */
import { describe, expect, it } from 'vitest'
import { runPolicyEpisode } from '../src/agent/run-policy-episode.js'
import { envRegistry, makeEnv, policyRegistry } from '../src/envs/index.js'
import { archetypeMixes as archetypeMixesV2 } from '../src/envs/releaseops/v2/archetype-mixes.js'
import { difficulties } from '../src/envs/releaseops/v2/difficulty.js'
import { badValue } from '../src/envs/releaseops/v2/facts.js'
import { heldOutMixesV3 } from '../src/envs/releaseops/v3/archetype-mixes-v3.js'
import { buildScenarioV3 } from '../src/envs/releaseops/v3/build-scenario-v3.js'
import { familiesV3 } from '../src/envs/releaseops/v3/families/index.js'

const archetypeMixes = [...archetypeMixesV2, ...heldOutMixesV3]

const envId = 'releaseops-v3'
const dataset = envRegistry.get(envId).dataset!

describe('releaseops-v3 oracle', () => {
  it('wins every episode of train and eval: 2,900 seeds, all families, first draw, at its proven reward', () => {
    const rows = [...dataset.rows('train'), ...dataset.rows('eval')]
    expect(rows.length).toBeGreaterThanOrEqual(2000)
    expect(new Set(rows.map((row) => row.family))).toEqual(new Set(familiesV3))
    const env = makeEnv(envId)
    const oracle = policyRegistry.create(envId, 'oracle')
    const baselines = ['naive', 'rule', 'phase-aware-rule', 'evidence-heuristic'].map((name) =>
      policyRegistry.create(envId, name),
    )
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
    for (const family of familiesV3) {
      for (const difficulty of difficulties) {
        for (let seed = 0; seed < 25; seed++) {
          const archetypeMix = archetypeMixes[seed % archetypeMixes.length] as string
          const hazards = buildScenarioV3({ family, seed, difficulty, archetypeMix }).scenario.hazards
          for (let mask = 0; mask < 1 << hazards.length; mask++) {
            const factOverrides = Object.fromEntries(
              hazards.map((fact, index) => [fact, mask & (1 << index) ? badValue[fact] : !badValue[fact]]),
            )
            const proven = buildScenarioV3({ family, seed, difficulty, archetypeMix, factOverrides })
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
    for (const name of ['naive', 'rule', 'phase-aware-rule', 'evidence-heuristic'])
      expect(policyRegistry.get(envId, name).privileged).toBeFalsy()
  })
})
