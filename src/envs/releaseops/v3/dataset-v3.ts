/**
 * @module envs/releaseops/v3: the dataset splits, defined here and nowhere else. Rows keep v1's format
 * plus `env_id`. Families and difficulties are balanced round-robin; mixes and seeds are drawn from the
 * split's own seed; seeds are distinct and every split draws them from its own range, so no episode of
 * an eval split appears in train. `eval` is `eval_seen` followed by `eval_unseen`.
 */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { UnknownNameError } from '../../../core/errors/unknown-name-error.js'
import { pythonDumps } from '../../../core/json/python-json.js'
import { PythonRandom } from '../../../core/random/python-random.js'
import { supervisorSystemPrompt, supervisorUserPrompt } from '../shared/constants.js'
import { difficulties } from '../v2/difficulty.js'
import { heldOutMixesV3, trainMixesV3 } from './archetype-mixes-v3.js'
import { type FamilyV3, heldOutFamiliesV3, seenFamiliesV3 } from './families/index.js'

export const envIdV3 = 'releaseops-v3'

interface SplitPart {
  rows: number
  families: readonly FamilyV3[]
  mixes: readonly string[]
}

interface SplitDefinition {
  /** Seeds the split's own generator (mix and episode-seed draws). */
  seed: number
  /** Episode seeds are distinct draws from this range (ranges never overlap between splits). */
  seedRange: readonly [number, number]
  parts: readonly SplitPart[]
}

export const splitsV3 = {
  train: {
    seed: 1101,
    seedRange: [100_000, 199_999],
    parts: [{ rows: 2400, families: seenFamiliesV3, mixes: trainMixesV3 }],
  },
  eval_seen: {
    seed: 2202,
    seedRange: [200_000, 299_999],
    parts: [{ rows: 300, families: seenFamiliesV3, mixes: trainMixesV3 }],
  },
  eval_unseen: {
    seed: 3303,
    seedRange: [300_000, 399_999],
    parts: [
      { rows: 140, families: heldOutFamiliesV3, mixes: trainMixesV3 },
      { rows: 60, families: seenFamiliesV3, mixes: heldOutMixesV3 },
    ],
  },
} as const satisfies Record<string, SplitDefinition>

export type SplitV3 = keyof typeof splitsV3 | 'eval'
export const splitNamesV3 = ['train', 'eval_seen', 'eval_unseen', 'eval'] as const

function generateSplit(split: keyof typeof splitsV3): DatasetRow[] {
  const definition: SplitDefinition = splitsV3[split]
  const rng = new PythonRandom(definition.seed)
  const seeds = new Set<number>()
  const rows: DatasetRow[] = []
  for (const part of definition.parts) {
    for (let index = 0; index < part.rows; index++) {
      const family = part.families[index % part.families.length] as FamilyV3
      const difficulty = difficulties[Math.floor(index / part.families.length) % difficulties.length] as string
      const mix = rng.choice(part.mixes)
      let seed = rng.randint(definition.seedRange[0], definition.seedRange[1])
      while (seeds.has(seed)) seed = rng.randint(definition.seedRange[0], definition.seedRange[1])
      seeds.add(seed)
      rows.push({
        prompt: [
          { role: 'system', content: supervisorSystemPrompt },
          { role: 'user', content: supervisorUserPrompt },
        ],
        family,
        seed,
        difficulty,
        archetype_mix: mix,
        split,
        env_id: envIdV3,
      })
    }
  }
  return rows
}

export function datasetRowsV3(split: string): DatasetRow[] {
  if (split === 'eval') return [...generateSplit('eval_seen'), ...generateSplit('eval_unseen')]
  if (!Object.hasOwn(splitsV3, split)) throw new UnknownNameError({ kind: 'split', name: split, known: splitNamesV3 })
  return generateSplit(split as keyof typeof splitsV3)
}

export const datasetV3: EnvDataset = {
  splits: splitNamesV3,
  rows: datasetRowsV3,
  toResetParams: (row) => ({
    seed: row.seed,
    options: { family: row.family, difficulty: row.difficulty, archetype_mix: row.archetype_mix },
  }),
  serializeRow: (row) => pythonDumps(row),
  groupBy: ['split', 'family', 'difficulty', 'archetype_mix'],
}
