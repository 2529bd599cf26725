/**
 * @module release/rl: a release split as the env registry a scripted model replays on: the split's rows
 * as dataset rows (seed = position) and the release's bare rollout env under the grading env's id.
 */
import type { DatasetRow } from '../../core/env/env-dataset.js'
import { EnvRegistry } from '../../core/registry/env-registry.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import type { ReleaseRolloutSource } from './release-rollout-source.js'

export interface ReleaseReplayEnvs {
  rows: DatasetRow[]
  envs: EnvRegistry
}

export function releaseReplayEnvs(options: { source: ReleaseRolloutSource; split: string }): ReleaseReplayEnvs {
  const rows: DatasetRow[] = options.source.rows.map((row, index) => ({
    seed: index,
    prompt: row.prompt as never,
    row: (row.reset.options as { row: never }).row,
  }))
  const envs = new EnvRegistry()
  envs.register({
    spec: gradingV1Spec,
    create: options.source.createBareEnv,
    dataset: {
      splits: [options.split],
      rows: () => rows,
      toResetParams: (row) => ({ options: { row: row.row } }),
      serializeRow: (row) => JSON.stringify(row),
      groupBy: [],
    },
  })
  return { rows, envs }
}
