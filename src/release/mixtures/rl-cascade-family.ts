/**
 * @module release/mixtures: the `rl-cascade` family: RL releases (stage-1/stage-2 pairs) projected to one
 * native-tool stage-1 episode per source. Each input is validated row by row against its dataset's task
 * first; the projection keeps the stage-1 prompt and labels, renames the source to its mixture id, drops
 * the stage-2 bundle, and keeps exactly the extra_info keys VeRL's agent loop accepts.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { splitNames } from '../contracts/canonical-record.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import type { ParquetField } from '../parquet/parquet-shape.js'
import { rlParquetColumns } from '../rl/rl-parquet.js'
import { type RlRow, rlDataSource, rlReleaseFormat } from '../rl/rl-row.js'
import { readRlRelease } from '../rl/validate-rl-release.js'
import type { MixtureInputSpec } from './mixture-inputs.js'
import type { PlannedEpisode } from './mixture-plan.js'

export const rlCascadeInputFormat = rlReleaseFormat

export function rlCascadeColumns(metadataFields: readonly string[]): ParquetField[] {
  return rlParquetColumns({ metadataFields, candidates: false })
}

/** Per split, the stage-1 row of every source of one validated RL release. */
export async function readRlCascadeInput(
  spec: MixtureInputSpec,
  loaded: LoadedTask,
): Promise<Record<string, Map<string, RlRow>>> {
  const read = await readRlRelease({ directory: spec.directory, dataset: spec.dataset, task: loaded.task })
  if (!read.report.valid) {
    const failing = Object.entries(read.report.splits).find(([, details]) => details.error_count > 0)
    const first = failing
      ? `${failing[0]}: ${failing[1].errors[0]}`
      : (read.report.cross_split_errors[0] ?? read.report.report_errors[0])
    throw new InvalidInputError({
      code: 'mixture_input_invalid',
      path: spec.directory,
      message: `Input release ${spec.dataset} fails RL row validation: ${first}`,
      issues: [{ code: 'mixture_input_invalid', path: `${spec.dataset}:${failing?.[0] ?? 'release'}`, message: String(first) }],
    })
  }
  const bySplit: Record<string, Map<string, RlRow>> = {}
  for (const split of splitNames) {
    const groups = new Map<string, RlRow>()
    for (const row of read.rows[split] ?? []) {
      const candidate = row as unknown as RlRow
      if (candidate.extra_info.stage === 'stage1') groups.set(candidate.extra_info.source_id, candidate)
    }
    bySplit[split] = groups
  }
  return bySplit
}

/** The one stage-1 episode row of a planned mixture episode. */
export function projectRlCascade(episode: PlannedEpisode, stage1: RlRow): RlRow[] {
  if (stage1.extra_info.trajectory_format !== nativeToolTrajectoryFormat) {
    throw new InvalidInputError({
      code: 'mixture_input_invalid',
      path: `${episode.dataset}:${episode.sourceId}`,
      message: `Stage-1 row ${episode.sourceId} of ${episode.dataset} is not a ${nativeToolTrajectoryFormat} episode.`,
      issues: [],
    })
  }
  return [
    {
      data_source: rlDataSource(episode.dataset, 'stage1'),
      prompt: stage1.prompt.map((message) => ({ role: message.role, content: message.content })),
      ability: stage1.ability,
      reward_model: { style: 'rule', ground_truth: stage1.reward_model.ground_truth },
      extra_info: {
        dataset: episode.dataset,
        stage: 'stage1',
        source_id: episode.id,
        metadata: { ...stage1.extra_info.metadata },
        ground_truth_level: stage1.extra_info.ground_truth_level,
        trajectory_format: nativeToolTrajectoryFormat,
      },
    },
  ]
}

export function rlCascadeKey(row: RlRow): { id: string; stage: string } {
  return { id: row.extra_info.source_id, stage: row.extra_info.stage }
}
