/** @module core/env: how an env names its dataset splits and turns a row into a reset. */
import type { JsonObject } from '../json/json-value.js'
import type { ResetParams } from './env-api.js'

/** One JSONL row: a seed plus whatever the env needs to rebuild the episode. */
export type DatasetRow = JsonObject & { seed: number; split?: string }

export interface EnvDataset {
  /** Splits in the order `releaseops dataset` writes them (`<split>.jsonl`). */
  splits: readonly string[]
  rows(split: string): DatasetRow[]
  toResetParams(row: DatasetRow): ResetParams
  /** One JSONL line, without the newline. */
  serializeRow(row: DatasetRow): string
  /** Row fields an eval groups by (besides `overall`), e.g. split and family. */
  groupBy: readonly string[]
}

/** What one finished episode counts as: 0/1 outcomes become rates, numbers become averages. */
export interface EpisodeOutcome {
  rates: Record<string, boolean>
  values: Record<string, number>
}
