/**
 * releaseops-v2 against the shared env conformance suite (determinism, bad calls as data, a 10,000-call
 * fuzz, truncation, JSON), and a fast-check property test: over 10,000 random and malformed calls on
 * random episodes, nothing throws, bad calls cost exactly the penalty, step rewards add up, no policy
 * exceeds the oracle's reward for that scenario, and `release_checks` only ever shows the truth.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ToolCall } from '../src/core/env/env-api.js'
import { envConformanceCases } from '../src/core/testing/env-conformance.js'
import { makeEnv } from '../src/envs/index.js'
import { archetypeMixes } from '../src/envs/releaseops/arena/archetype-mixes.js'
import { difficulties } from '../src/envs/releaseops/arena/difficulty.js'
import { familiesV2 } from '../src/envs/releaseops/arena/families/index.js'
import { holdReasons, questionTypes } from '../src/envs/releaseops/shared/constants.js'
import { acceptedRuleIds } from '../src/envs/releaseops/shared/safety-rules.js'
import { ReleaseOpsV2Env, type ReleaseOpsV2Observation } from '../src/envs/releaseops/v2/releaseops-env.js'

const resets = familiesV2.map((family, index) => ({
  seed: 500 + index * 37,
  options: {
    family,
    difficulty: difficulties[index % difficulties.length] as string,
    archetype_mix: archetypeMixes[index % archetypeMixes.length] as string,
  },
}))

describe('releaseops-v2 conformance', () => {
  for (const testCase of envConformanceCases<ReleaseOpsV2Observation>({ createEnv: () => makeEnv('releaseops-v2'), resets })) {
    it(testCase.name, () => testCase.run())
  }
})

/** An abstract call: indices pick real ids from whatever the current observation shows. */
const abstractCall = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('inspect' as const), pick: fc.nat(), tool: fc.nat(2), matchKind: fc.boolean() }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('ask' as const), pick: fc.nat(), question: fc.constantFrom(...questionTypes) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('block' as const), pick: fc.nat(), rule: fc.constantFrom(...acceptedRuleIds) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hold' as const), reason: fc.constantFrom(...holdReasons) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      name: fc.oneof(
        fc.constantFrom('inspect_pr_diff', 'ask_worker', 'block_proposal', 'hold_release', '__proto__', ''),
        fc.string(),
      ),
      arguments: fc.oneof(fc.anything(), fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.constant(null)))),
    }),
  },
)
type AbstractCall = typeof abstractCall extends fc.Arbitrary<infer T> ? T : never

const tools = ['inspect_pr_diff', 'inspect_ci_run', 'inspect_ticket'] as const
const keys = { inspect_pr_diff: 'pr_id', inspect_ci_run: 'run_id', inspect_ticket: 'ticket_id' } as const
const toolOf = (ref: string) => (ref.startsWith('pr_') ? tools[0] : ref.startsWith('ci_run_') ? tools[1] : tools[2])

function concrete(call: AbstractCall, observation: ReleaseOpsV2Observation, seenRefs: readonly string[]): ToolCall {
  const proposals = observation.view.proposals
  const proposal = proposals[('pick' in call ? call.pick : 0) % Math.max(1, proposals.length)]
  switch (call.kind) {
    case 'inspect': {
      const ref = seenRefs[call.pick % seenRefs.length] as string
      const tool = call.matchKind ? toolOf(ref) : (tools[call.tool] as (typeof tools)[number])
      return { name: tool, arguments: { [keys[tool]]: ref } }
    }
    case 'ask':
      return { name: 'ask_worker', arguments: { worker_id: proposal?.worker ?? 'x', question_type: call.question } }
    case 'approve':
      return { name: 'approve_proposal', arguments: { proposal_id: proposal?.id ?? 'p1' } }
    case 'block':
      return { name: 'block_proposal', arguments: { proposal_id: proposal?.id ?? 'p1', rule_id: call.rule } }
    case 'hold':
      return { name: 'hold_release', arguments: { reason_code: call.reason } }
    default:
      return { name: call.name, arguments: call.arguments }
  }
}

describe('releaseops-v2 property test', () => {
  it('holds its invariants over 10,000+ random and malformed calls', () => {
    let calls = 0
    let errors = 0
    let terminals = 0
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 0, max: 50_000_000 }),
          family: fc.constantFrom(...familiesV2),
          difficulty: fc.constantFrom(...difficulties),
          archetype_mix: fc.constantFrom(...archetypeMixes),
        }),
        fc.array(abstractCall, { minLength: 40, maxLength: 60 }),
        ({ seed, ...options }, script) => {
          const env = new ReleaseOpsV2Env()
          const reset = env.reset({ seed, options })
          const hidden = env.hiddenState() as { oracle: { reward: number } }
          let observation = reset.observation
          let total = 0
          let ended = false
          const seenRefs = [...new Set(observation.view.proposals.flatMap((proposal) => proposal.refs))]
          for (const item of script) {
            const call = concrete(item, observation, seenRefs)
            const step = env.step(call)
            calls++
            expect(Number.isFinite(step.reward)).toBe(true)
            total += step.reward
            expect(step.info.cumulative_reward).toBeCloseTo(total, 9)
            expect(step.info.cumulative_reward).toBeLessThanOrEqual(hidden.oracle.reward + 1e-9)
            const error = step.observation.error
            if (error) {
              errors++
              expect(step.reward).toBe(-0.25)
              expect(error.code).toMatch(/^[a-z_]+$/)
              expect(typeof error.message).toBe('string')
            }
            if (ended) {
              expect(error).toBeDefined()
              if (error?.code !== 'unknown_tool') expect(error?.code).toBe('episode_terminal')
            }
            const view = step.observation.view
            expect(view.review_budget_remaining).toBeGreaterThanOrEqual(0)
            expect(view.evidence_actions_remaining).toBeGreaterThanOrEqual(0)
            expect(new Set(view.proposals.map((proposal) => proposal.id)).size).toBe(view.proposals.length)
            const facts = (env.hiddenState() as { current_facts: Record<string, boolean> }).current_facts
            for (const [fact, value] of Object.entries(view.release_checks))
              if (value !== 'unverified') expect(value).toBe(facts[fact])
            const text = env.render(step.observation)
            if (!error) expect(JSON.parse(text)).toEqual(step.observation.result)
            if (step.terminated && !ended) {
              ended = true
              terminals++
            }
            if (step.truncated) break
            observation = step.observation
            for (const proposal of view.proposals)
              for (const ref of proposal.refs) if (!seenRefs.includes(ref)) seenRefs.push(ref)
          }
        },
      ),
      { numRuns: 250, seed: 20261129 },
    )
    expect(calls).toBeGreaterThanOrEqual(10_000)
    expect(errors).toBeGreaterThan(1000)
    expect(calls - errors).toBeGreaterThan(1000)
    expect(terminals).toBeGreaterThan(50)
  })
})
