/**
 * @module envs/releaseops/v3: the dataset: its families and mixes in the split layout and row builder
 * that v2 and v3 share (see ../shared/split-dataset.ts for the layout, balancing and seed rules), plus
 * v3's wide evaluation: 1,000 fresh rows for each slice the audit reads (seen, held-out mix, held-out
 * families), so that every slice's 95% interval is at most ±0.1 (`eval_wide` is the three together).
 * The four shared splits, and their bytes, are as they were.
 */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { difficulties } from '../arena/difficulty.js'
import {
  releaseOpsSplitNames,
  releaseOpsSplits,
  type SplitDatasetSpec,
  type SplitDefinition,
  splitDataset,
  splitDatasetRows,
} from '../shared/split-dataset.js'
import { heldOutMixesV3, trainMixesV3 } from './archetype-mixes.js'
import { heldOutFamiliesV3, seenFamiliesV3 } from './families/index.js'

const envIdV3 = 'releaseops-v3'

/** Rows of each wide slice: the audit's interval of every ladder policy is then at most ±0.1 (600 left `rule` at ±0.114). */
const wideSliceRows = 1000

/** Each wide slice draws its own seeds from a range no other split uses. */
const wideSplits = {
  wide_seen: {
    seed: 4404,
    seedRange: [400_000, 499_999],
    parts: [{ rows: wideSliceRows, families: seenFamiliesV3, mixes: trainMixesV3 }],
  },
  wide_held_out_mix: {
    seed: 5505,
    seedRange: [500_000, 599_999],
    parts: [{ rows: wideSliceRows, families: seenFamiliesV3, mixes: heldOutMixesV3 }],
  },
  wide_held_out_families: {
    seed: 6606,
    seedRange: [600_000, 699_999],
    parts: [{ rows: wideSliceRows, families: heldOutFamiliesV3, mixes: trainMixesV3 }],
  },
} as const satisfies Record<string, SplitDefinition>

export const splitsV3 = {
  ...releaseOpsSplits({
    seenFamilies: seenFamiliesV3,
    heldOutFamilies: heldOutFamiliesV3,
    trainMixes: trainMixesV3,
    heldOutMixes: heldOutMixesV3,
  }),
  ...wideSplits,
}

export type SplitV3 = keyof typeof splitsV3 | 'eval' | 'eval_wide'
const wideSplitNamesV3 = ['wide_seen', 'wide_held_out_mix', 'wide_held_out_families'] as const
const splitNamesV3 = [...releaseOpsSplitNames, ...wideSplitNamesV3, 'eval_wide'] as const

const specV3: SplitDatasetSpec = {
  envId: envIdV3,
  splits: splitsV3,
  splitNames: splitNamesV3,
  difficulties,
  aggregates: { eval: ['eval_seen', 'eval_unseen'], eval_wide: wideSplitNamesV3 },
}

export function datasetRowsV3(split: string): DatasetRow[] {
  return splitDatasetRows(specV3, split)
}

export const datasetV3: EnvDataset = splitDataset(specV3)
