/**
 * @module envs/releaseops/v3: the dataset: its families and mixes in the split layout and row builder
 * that v2 and v3 share (see ../shared/split-dataset.ts for the layout, balancing and seed rules).
 */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { difficulties } from '../arena/difficulty.js'
import {
  releaseOpsSplitNames,
  releaseOpsSplits,
  type SplitDatasetSpec,
  splitDataset,
  splitDatasetRows,
} from '../shared/split-dataset.js'
import { heldOutMixesV3, trainMixesV3 } from './archetype-mixes.js'
import { heldOutFamiliesV3, seenFamiliesV3 } from './families/index.js'

export const envIdV3 = 'releaseops-v3'

export const splitsV3 = releaseOpsSplits({
  seenFamilies: seenFamiliesV3,
  heldOutFamilies: heldOutFamiliesV3,
  trainMixes: trainMixesV3,
  heldOutMixes: heldOutMixesV3,
})

export type SplitV3 = keyof typeof splitsV3 | 'eval'
export const splitNamesV3 = releaseOpsSplitNames

const specV3: SplitDatasetSpec = { envId: envIdV3, splits: splitsV3, splitNames: splitNamesV3, difficulties }

export function datasetRowsV3(split: string): DatasetRow[] {
  return splitDatasetRows(specV3, split)
}

export const datasetV3: EnvDataset = splitDataset(specV3)
