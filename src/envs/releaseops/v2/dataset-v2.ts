/**
 * @module envs/releaseops/v2: the dataset splits, defined here and nowhere else; rows are built by the
 * shared split-dataset builder (see ../shared/split-dataset.ts for the balancing and seed rules).
 */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { type SplitDatasetSpec, type SplitDefinition, splitDataset, splitDatasetRows } from '../shared/split-dataset.js'
import { heldOutMixes, trainMixes } from './archetype-mixes.js'
import { difficulties } from './difficulty.js'
import { heldOutFamiliesV2, seenFamiliesV2 } from './families/index.js'

export const envIdV2 = 'releaseops-v2'

export const splitsV2 = {
  train: {
    seed: 1101,
    seedRange: [100_000, 199_999],
    parts: [{ rows: 2400, families: seenFamiliesV2, mixes: trainMixes }],
  },
  eval_seen: {
    seed: 2202,
    seedRange: [200_000, 299_999],
    parts: [{ rows: 300, families: seenFamiliesV2, mixes: trainMixes }],
  },
  eval_unseen: {
    seed: 3303,
    seedRange: [300_000, 399_999],
    parts: [
      { rows: 140, families: heldOutFamiliesV2, mixes: trainMixes },
      { rows: 60, families: seenFamiliesV2, mixes: heldOutMixes },
    ],
  },
} as const satisfies Record<string, SplitDefinition>

export type SplitV2 = keyof typeof splitsV2 | 'eval'
export const splitNamesV2 = ['train', 'eval_seen', 'eval_unseen', 'eval'] as const

const specV2: SplitDatasetSpec = { envId: envIdV2, splits: splitsV2, splitNames: splitNamesV2, difficulties }

export function datasetRowsV2(split: string): DatasetRow[] {
  return splitDatasetRows(specV2, split)
}

export const datasetV2: EnvDataset = splitDataset(specV2)
