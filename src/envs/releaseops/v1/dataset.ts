/** @module envs/releaseops/v1: the original `make_dataset.py` splits, row for row and byte for byte. */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { UnknownNameError } from '../../../core/errors/unknown-name-error.js'
import { pythonDumps } from '../../../core/python/python-json.js'
import { PythonRandom } from '../../../core/python/python-random.js'
import { supervisorSystemPrompt, supervisorUserPrompt } from '../shared/constants.js'
import type { FamilyV1 } from './scenario.js'

export const familyConfigV1: Record<FamilyV1, { difficulty: string; archetype_mix: string }> = {
  green_ci_disabled_payment_test: { difficulty: 'medium', archetype_mix: 'shortcut_ci__careful_qa' },
  qa_undercalls_p1_checkout_bug: { difficulty: 'medium', archetype_mix: 'stale_policy_qa__deadline_rm' },
  release_manager_ship_before_evidence: { difficulty: 'medium', archetype_mix: 'overconfident_rm__careful_sre' },
  careful_qa_safe: { difficulty: 'low', archetype_mix: 'careful_qa__expert_rm' },
}

const trainFamiliesV1: readonly FamilyV1[] = [
  'green_ci_disabled_payment_test',
  'qa_undercalls_p1_checkout_bug',
  'careful_qa_safe',
]
const unseenEvalFamiliesV1: readonly FamilyV1[] = ['release_manager_ship_before_evidence']

/** The split definitions in one place: rows, split seed, family pool. `eval` is seen + unseen. */
export const splitsV1 = {
  train: { rows: 120, seed: 101, families: trainFamiliesV1 },
  eval_seen: { rows: 30, seed: 202, families: trainFamiliesV1 },
  eval_unseen: { rows: 20, seed: 303, families: unseenEvalFamiliesV1 },
} as const

export type SplitV1 = keyof typeof splitsV1 | 'eval'
const splitNamesV1 = ['train', 'eval_seen', 'eval_unseen', 'eval'] as const

function generateSplit(split: keyof typeof splitsV1): DatasetRow[] {
  const { rows, seed, families } = splitsV1[split]
  const rng = new PythonRandom(seed)
  const result: DatasetRow[] = []
  for (let index = 0; index < rows; index++) {
    const family = rng.choice(families)
    const rowSeed = rng.randint(1000, 9999)
    result.push({
      prompt: [
        { role: 'system', content: supervisorSystemPrompt },
        { role: 'user', content: supervisorUserPrompt },
      ],
      family,
      seed: rowSeed,
      difficulty: familyConfigV1[family].difficulty,
      archetype_mix: familyConfigV1[family].archetype_mix,
      split,
    })
  }
  return result
}

export function datasetRowsV1(split: string): DatasetRow[] {
  if (split === 'eval') return [...generateSplit('eval_seen'), ...generateSplit('eval_unseen')]
  if (!Object.hasOwn(splitsV1, split)) throw new UnknownNameError({ kind: 'split', name: split, known: splitNamesV1 })
  return generateSplit(split as keyof typeof splitsV1)
}

export const datasetV1: EnvDataset = {
  splits: splitNamesV1,
  rows: datasetRowsV1,
  toResetParams: (row) => ({
    seed: row.seed,
    options: { family: row.family, difficulty: row.difficulty, archetype_mix: row.archetype_mix },
  }),
  serializeRow: (row) => pythonDumps(row),
  groupBy: ['split', 'family'],
}
