/**
 * @module envs/releaseops/shared: the split-dataset builder that v2 and v3 share. Rows keep v1's format
 * plus `env_id`. Families and difficulties are balanced round-robin; mixes and seeds are drawn from the
 * split's own seed; seeds are distinct and every split draws them from its own range, so no episode of
 * an eval split appears in train. `eval` is `eval_seen` followed by `eval_unseen`; a version may add
 * splits and concatenations of its own (`aggregates`) without touching these.
 */
import type { DatasetRow, EnvDataset } from '../../../core/env/env-dataset.js'
import { UnknownNameError } from '../../../core/errors/unknown-name-error.js'
import { pythonDumps } from '../../../core/python/python-json.js'
import { PythonRandom } from '../../../core/python/python-random.js'
import { supervisorSystemPrompt, supervisorUserPrompt } from './constants.js'

export interface SplitPart {
  rows: number
  families: readonly string[]
  mixes: readonly string[]
}

export interface SplitDefinition {
  /** Seeds the split's own generator (mix and episode-seed draws). */
  seed: number
  /** Episode seeds are distinct draws from this range (ranges never overlap between splits). */
  seedRange: readonly [number, number]
  parts: readonly SplitPart[]
}

/**
 * The split layout both versions use: train and eval_seen draw the seen families with the training
 * mixes; eval_unseen adds the held-out families (with training mixes) and the held-out mixes (with seen
 * families). Seeds and seed ranges are the same for every version; the families and mixes are its own.
 */
export function releaseOpsSplits(options: {
  seenFamilies: readonly string[]
  heldOutFamilies: readonly string[]
  trainMixes: readonly string[]
  heldOutMixes: readonly string[]
}) {
  const { seenFamilies, heldOutFamilies, trainMixes, heldOutMixes } = options
  return {
    train: {
      seed: 1101,
      seedRange: [100_000, 199_999],
      parts: [{ rows: 2400, families: seenFamilies, mixes: trainMixes }],
    },
    eval_seen: {
      seed: 2202,
      seedRange: [200_000, 299_999],
      parts: [{ rows: 300, families: seenFamilies, mixes: trainMixes }],
    },
    eval_unseen: {
      seed: 3303,
      seedRange: [300_000, 399_999],
      parts: [
        { rows: 140, families: heldOutFamilies, mixes: trainMixes },
        { rows: 60, families: seenFamilies, mixes: heldOutMixes },
      ],
    },
  } as const satisfies Record<string, SplitDefinition>
}

/** The four split names every version writes, `eval` last. */
export const releaseOpsSplitNames = ['train', 'eval_seen', 'eval_unseen', 'eval'] as const

export interface SplitDatasetSpec {
  envId: string
  /** Must hold `eval_seen` and `eval_unseen`; `eval` is their concatenation. */
  splits: Readonly<Record<string, SplitDefinition>>
  splitNames: readonly string[]
  difficulties: readonly string[]
  /** Splits that are other splits one after another (default: `eval` = `eval_seen` + `eval_unseen`). */
  aggregates?: Readonly<Record<string, readonly string[]>>
}

const defaultAggregates = { eval: ['eval_seen', 'eval_unseen'] } as const

function generateSplit(spec: SplitDatasetSpec, split: string): DatasetRow[] {
  const definition = spec.splits[split] as SplitDefinition
  const rng = new PythonRandom(definition.seed)
  const seeds = new Set<number>()
  const rows: DatasetRow[] = []
  for (const part of definition.parts) {
    for (let index = 0; index < part.rows; index++) {
      const family = part.families[index % part.families.length] as string
      const difficulty = spec.difficulties[Math.floor(index / part.families.length) % spec.difficulties.length] as string
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
        env_id: spec.envId,
      })
    }
  }
  return rows
}

/** The rows of one split (or `eval`); an unknown split is an `UnknownNameError`. */
export function splitDatasetRows(spec: SplitDatasetSpec, split: string): DatasetRow[] {
  const aggregates: Readonly<Record<string, readonly string[]>> = spec.aggregates ?? defaultAggregates
  const parts = Object.hasOwn(aggregates, split) ? aggregates[split] : undefined
  if (parts) return parts.flatMap((part) => generateSplit(spec, part))
  if (!Object.hasOwn(spec.splits, split)) throw new UnknownNameError({ kind: 'split', name: split, known: spec.splitNames })
  return generateSplit(spec, split)
}

/** The `EnvDataset` of a version: its rows, reset params from a row, Python-identical serialisation. */
export function splitDataset(spec: SplitDatasetSpec): EnvDataset {
  return {
    splits: spec.splitNames,
    rows: (split) => splitDatasetRows(spec, split),
    toResetParams: (row) => ({
      seed: row.seed,
      options: { family: row.family, difficulty: row.difficulty, archetype_mix: row.archetype_mix },
    }),
    serializeRow: (row) => pythonDumps(row),
    groupBy: ['split', 'family', 'difficulty', 'archetype_mix'],
  }
}
