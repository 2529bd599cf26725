/**
 * The models the rollout gate's thresholds were set on (decision 0064), each a grading policy behind the
 * scripted OpenAI-compatible server: the collapsed ones (constant train-majority answer, the same after
 * three searches, a random answer, the lexical one-search baseline) and the scripted reference ladder
 * (right on a fixed share of prompts, on every sample or on every other one). Used by
 * `test/gate-calibration.test.ts` and `bench/gate-calibration.ts`.
 */
import { generatorPolicy, type Policy } from '../src/core/policy/policy.js'
import { PythonRandom } from '../src/core/python/python-random.js'
import { finalResponseAction, type GradingObservation } from '../src/envs/grading/grading-env.js'
import { readPromptMetadata } from '../src/envs/grading/policies/read-prompt-metadata.js'
import { searchTopPolicy } from '../src/envs/grading/policies/search-top-policy.js'
import { constantAnswerPolicy, majorityLabel, randomAnswerPolicy } from '../src/eval/gate/degenerate-gate-policies.js'
import type { GateReasonCode } from '../src/eval/gate/gate-reasons.js'
import type { GradingRolloutEnv } from '../src/eval/gate/grading-rollout-env.js'
import { scriptedAccuracyPolicy } from '../src/eval/gate/scripted-gate-model.js'
import { releaseRolloutSource } from '../src/release/rl/release-rollout-source.js'
import type { RlRow } from '../src/release/rl/rl-row.js'
import type { GateFixture } from './gate-fixture.js'

export interface GateModel {
  name: string
  kind: 'degenerate' | 'reference'
  /** What the rule must say: the reasons it fails on (empty: it passes). */
  reasons: readonly GateReasonCode[]
  create: () => Policy<GradingObservation>
}

/** The train split's majority `(leaf, level)`: what a collapsed model keeps answering. */
export async function trainMajority(fixture: GateFixture): Promise<{ categoryId: string; level: string }> {
  const train = await releaseRolloutSource({ directory: fixture.release, split: 'train', ...fixture.files })
  return majorityLabel(train.rows.map((row) => (row.reset.options as { row: RlRow }).row))
}

/** Shares of the val keys (sha256 order): right on every sample, and right on every other sample. */
function reference(options: {
  fixture: GateFixture
  name: string
  correct: number
  alternate: number
  reasons: readonly GateReasonCode[]
}): GateModel {
  const { keys } = options.fixture
  const count = (share: number) => Math.round(share * keys.length)
  const correct = new Set(keys.slice(0, count(options.correct)))
  const sources = new Set(keys.slice(count(options.correct), count(options.correct) + count(options.alternate)))
  const answered = new Map<string, number>()
  return {
    name: options.name,
    kind: 'reference',
    reasons: options.reasons,
    create: () => scriptedAccuracyPolicy({ task: options.fixture.task, correct, toolCalls: 2, alternate: { sources, answered } }),
  }
}

/**
 * The constant answer after one search, except that on a share of prompts every other sample answers right
 * (a collapsed model that still samples a little): in the band, with mixed prompts, caught by diversity alone.
 */
function sampledConstant(options: {
  fixture: GateFixture
  majority: { categoryId: string; level: string }
  share: number
}): GateModel {
  const { fixture } = options
  const sources = new Set(fixture.keys.slice(0, Math.round(options.share * fixture.keys.length)))
  const answered = new Map<string, number>()
  const constant = JSON.stringify({
    answer: fixture.task.choices.byCategory(options.majority.categoryId).choiceId,
    level: options.majority.level,
  })
  return {
    name: 'constant after one search, right on every other sample of 20% of prompts',
    kind: 'degenerate',
    reasons: ['degenerate_answers'],
    create: () =>
      generatorPolicy<GradingObservation>('sampled-constant', function* (start) {
        const hidden = (start.env as unknown as GradingRolloutEnv).hiddenState()
        const metadata = readPromptMetadata(start.observation)
        yield {
          name: 'search_categories',
          arguments: { field_name: metadata.field_name ?? '', table_name: metadata.table_name ?? '' },
        }
        let content = constant
        if (sources.has(hidden.source_id)) {
          const count = answered.get(hidden.source_id) ?? 0
          answered.set(hidden.source_id, count + 1)
          if (count % 2 === 0) content = JSON.stringify({ answer: hidden.choice_id, level: hidden.level })
        }
        yield { name: finalResponseAction, arguments: { content } }
      }),
  }
}

export function gradingGateModels(fixture: GateFixture, majority: { categoryId: string; level: string }): GateModel[] {
  const random = new PythonRandom(20260504)
  const task = fixture.task
  return [
    {
      name: 'constant (train-majority leaf and level, no tool)',
      kind: 'degenerate',
      reasons: ['no_learning_signal', 'no_tool_use', 'degenerate_answers'],
      create: () => constantAnswerPolicy({ task, ...majority }),
    },
    {
      name: 'constant after three searches',
      kind: 'degenerate',
      reasons: ['no_learning_signal', 'degenerate_answers'],
      create: () => constantAnswerPolicy({ task, ...majority, searches: 3 }),
    },
    sampledConstant({ fixture, majority, share: 0.2 }),
    {
      name: 'random answer (uniform leaf and level)',
      kind: 'degenerate',
      reasons: ['rate_out_of_bounds', 'no_learning_signal', 'no_tool_use'],
      create: () => randomAnswerPolicy({ task, random }),
    },
    {
      name: 'one search, first candidate, middle level (search-top1)',
      kind: 'degenerate',
      reasons: ['no_learning_signal'],
      create: () => searchTopPolicy(task.grading.levels),
    },
    reference({ fixture, name: 'reference 0%', correct: 0, alternate: 0, reasons: ['rate_out_of_bounds', 'no_learning_signal'] }),
    reference({
      fixture,
      name: 'reference 15%, same on every sample',
      correct: 0.15,
      alternate: 0,
      reasons: ['no_learning_signal'],
    }),
    reference({ fixture, name: 'reference 6%, sampled', correct: 0, alternate: 0.12, reasons: [] }),
    reference({ fixture, name: 'reference 15%, sampled', correct: 0, alternate: 0.3, reasons: [] }),
    reference({ fixture, name: 'reference 25%, sampled', correct: 0.1, alternate: 0.3, reasons: [] }),
    reference({ fixture, name: 'reference 50%, sampled', correct: 0.35, alternate: 0.3, reasons: ['rate_out_of_bounds'] }),
  ]
}
