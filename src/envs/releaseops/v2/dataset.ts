/**
 * @module envs/releaseops/v2: the dataset: its families and mixes in the split layout and row builder
 * that v2 and v3 share (see ../shared/split-dataset.ts for the layout, balancing and seed rules).
 */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { heldOutMixes, trainMixes } from '../arena/archetype-mixes.js'
import { difficulties } from '../arena/difficulty.js'
import { heldOutFamiliesV2, seenFamiliesV2 } from '../arena/families/index.js'
import {
  releaseOpsSplitNames,
  releaseOpsSplits,
  type SplitDatasetSpec,
  splitDataset,
  splitDatasetRows,
} from '../shared/split-dataset.js'

const envIdV2 = 'releaseops-v2'

export const splitsV2 = releaseOpsSplits({
  seenFamilies: seenFamiliesV2,
  heldOutFamilies: heldOutFamiliesV2,
  trainMixes,
  heldOutMixes,
})

export type SplitV2 = keyof typeof splitsV2 | 'eval'
const splitNamesV2 = releaseOpsSplitNames

const specV2: SplitDatasetSpec = { envId: envIdV2, splits: splitsV2, splitNames: splitNamesV2, difficulties }

export function datasetRowsV2(split: string): DatasetRow[] {
  return splitDatasetRows(specV2, split)
}

export const datasetV2: EnvDataset = splitDataset(specV2)
