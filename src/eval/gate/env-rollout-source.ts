/**
 * @module eval/gate: a registered env's eval dataset as the rollout gate's episodes (`--env
 * releaseops-v2 --split eval`, or a JSONL file of rows): each row resets the env as `releaseops eval`
 * would, with the row's own prompt. The dataset is identified by its split name and sha256.
 */
import type { AnyEnv } from '../../core/env/env-api.js'
import type { EnvRegistry } from '../../core/registry/env-registry.js'
import { rowKey } from '../llm-episode-record.js'
import { loadDataset } from '../load-dataset.js'
import type { GateRow } from './run-gate-episodes.js'

export async function envRolloutSource(options: { envId: string; envs: EnvRegistry; source: string; limit?: number }): Promise<{
  rows: GateRow[]
  createEnv: () => AnyEnv
  release: Record<string, unknown>
}> {
  const registration = options.envs.get(options.envId)
  const dataset = await loadDataset({ envId: options.envId, source: options.source, registry: options.envs })
  const selected = options.limit === undefined ? dataset.rows : dataset.rows.slice(0, options.limit)
  const rows: GateRow[] = selected.map((row) => ({
    key: rowKey(registration.dataset ? registration.dataset.serializeRow(row) : JSON.stringify(row)),
    dataset: null,
    reset: registration.dataset ? registration.dataset.toResetParams(row) : { seed: row.seed },
    prompt: row.prompt,
  }))
  return {
    rows,
    createEnv: () => options.envs.make(options.envId),
    release: {
      kind: 'env-dataset',
      env_id: options.envId,
      dataset: dataset.name,
      dataset_sha256: dataset.sha256,
      dataset_rows: dataset.rows.length,
    },
  }
}
