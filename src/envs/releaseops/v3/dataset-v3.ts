/**
 * @module envs/releaseops/v3: the dataset splits, defined here and nowhere else; rows are built by the
 * shared split-dataset builder (see ../shared/split-dataset.ts for the balancing and seed rules).
 */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { type SplitDatasetSpec, type SplitDefinition, splitDataset, splitDatasetRows } from '../shared/split-dataset.js'
import { difficulties } from '../v2/difficulty.js'
import { heldOutMixesV3, trainMixesV3 } from './archetype-mixes-v3.js'
import { heldOutFamiliesV3, seenFamiliesV3 } from './families/index.js'

export const envIdV3 = 'releaseops-v3'

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

const specV3: SplitDatasetSpec = { envId: envIdV3, splits: splitsV3, splitNames: splitNamesV3, difficulties }

export function datasetRowsV3(split: string): DatasetRow[] {
  return splitDatasetRows(specV3, split)
}

export const datasetV3: EnvDataset = splitDataset(specV3)
