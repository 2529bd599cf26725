/**
 * @module release/mixtures: the `trajectory` family, the trajectory-aware adapter the original lacked:
 * several datasets' trajectory SFT releases (issue 7's format) mixed into one SFT input that VeRL's
 * multi-turn SFT dataset reads directly. Each input is loaded with `loadTrajectoryRelease` (full
 * validation: every row, every tool call re-executed), all inputs must agree on the thinking flag, and
 * every row is kept byte-for-byte as exported (its `source_id` still drives its trajectory class) plus a
 * `mixture_provenance {dataset, mixture_id, original_source_sha256, replica}` column that carries the
 * mixture id. The output's rows are re-checked with issue 7's row check.
 */

import { readFileSync } from 'node:fs'
import type { ChatTool } from '../../chat/chat-message.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { GradingEnv, gradingV1Spec } from '../../envs/grading/grading-env.js'
import { sha256Hex } from '../../io/sha256.js'
import { splitNames } from '../contracts/canonical-record.js'
import { readNestedParquetRows } from '../parquet/nested-parquet-file.js'
import { writeParquetRows } from '../parquet/parquet-rows.js'
import { type ParquetField, shapes } from '../parquet/parquet-shape.js'
import { checkTrajectoryRow, type RowCheckContext } from '../trajectories/check-trajectory-row.js'
import { loadTrajectoryRelease } from '../trajectories/load-trajectory-release.js'
import { trajectoryColumns } from '../trajectories/trajectory-columns.js'
import { trajectoryFormat, trajectoryReleaseFormat } from '../trajectories/trajectory-format.js'
import type { TrajectoryRow } from '../trajectories/trajectory-row.js'
import { trajectoryTools } from '../trajectories/trajectory-tools.js'
import { groupedFamilyBuilder, type MixtureFamilyBuilder } from './mixture-family-builder.js'
import type { PlannedEpisode } from './mixture-plan.js'
import type { MixtureTasks } from './mixture-tasks.js'
import { type MixtureRowValidator, unknownDatasetIssue } from './validate-mixture-release.js'

export type TrajectoryMixtureRow = TrajectoryRow & {
  mixture_provenance: { dataset: string; mixture_id: string; original_source_sha256: string; replica: number }
}

const provenanceField: ParquetField = {
  name: 'mixture_provenance',
  shape: shapes.struct({
    dataset: shapes.string,
    mixture_id: shapes.string,
    original_source_sha256: shapes.string,
    replica: shapes.int64,
  }),
}

export function trajectoryMixtureColumns(tools: readonly ChatTool[], metadataFields: readonly string[]): ParquetField[] {
  return [...trajectoryColumns({ tools, metadataFields }), provenanceField]
}

/** Every row of a trajectory-mixture file (schema checked against the mixture's columns). */
export function readTrajectoryMixtureRows(
  path: string,
  columns: readonly ParquetField[],
): { rows: Record<string, unknown>[]; sha256: string } {
  const bytes = readFileSync(path)
  return { rows: readNestedParquetRows(bytes, columns), sha256: sha256Hex(bytes) }
}

function projectTrajectory(episode: PlannedEpisode, row: TrajectoryRow): TrajectoryMixtureRow[] {
  return [
    {
      ...row,
      mixture_provenance: {
        dataset: episode.dataset,
        mixture_id: episode.id,
        original_source_sha256: sha256Hex(row.source_id),
        replica: episode.cycle,
      },
    },
  ]
}

function trajectoryMixtureValidator(tasks: MixtureTasks, enableThinking: () => boolean | undefined): MixtureRowValidator {
  const tools = trajectoryTools(gradingV1Spec)
  const contexts = new Map<string, RowCheckContext>()
  for (const [dataset, loaded] of Object.entries(tasks.byDataset))
    contexts.set(dataset, {
      task: loaded.task,
      env: new GradingEnv({ task: loaded.task }),
      dataset,
      tools,
      toolsJson: JSON.stringify(tools),
    })
  const columns = trajectoryMixtureColumns(tools, tasks.task.metadata_fields)
  return {
    family: 'trajectory',
    columns: [],
    stages: ['tool_trajectory'],
    trajectoryFormat,
    io: {
      write: (path, rows) => writeParquetRows({ path, columns, rows }),
      read: async (path) => readTrajectoryMixtureRows(path, columns),
    },
    key(row) {
      const provenance = row.mixture_provenance as TrajectoryMixtureRow['mixture_provenance'] | undefined
      if (!provenance || typeof provenance.mixture_id !== 'string' || typeof row.dataset !== 'string') return null
      return { id: provenance.mixture_id, stage: String(row.stage), dataset: row.dataset }
    },
    check(row, dataset) {
      const context = contexts.get(dataset)
      if (!context) return [unknownDatasetIssue(dataset)]
      const { mixture_provenance: provenance, ...rest } = row as Record<string, unknown> & {
        mixture_provenance?: TrajectoryMixtureRow['mixture_provenance']
      }
      const errors = checkTrajectoryRow(rest, context)
      if (provenance?.dataset !== dataset)
        errors.push({
          code: 'mixture_provenance',
          path: 'mixture_provenance.dataset',
          message: `mixture_provenance.dataset is ${String(provenance?.dataset)}, the row's dataset ${dataset}`,
        })
      if (provenance?.original_source_sha256 !== sha256Hex(String(rest.source_id)))
        errors.push({
          code: 'mixture_provenance',
          path: 'mixture_provenance.original_source_sha256',
          message: 'mixture_provenance.original_source_sha256 is not sha256(source_id)',
        })
      if (provenance && !provenance.mixture_id.endsWith(`:${String(provenance.replica).padStart(4, '0')}`))
        errors.push({
          code: 'mixture_provenance',
          path: 'mixture_provenance.replica',
          message: 'mixture_provenance.replica differs from the mixture id',
        })
      const thinking = enableThinking()
      if (thinking !== undefined && rest.enable_thinking !== thinking)
        errors.push({
          code: 'mixture_thinking',
          path: 'enable_thinking',
          message: `enable_thinking is ${String(rest.enable_thinking)}, the mixture's ${thinking}`,
        })
      return errors
    },
  }
}

export function trajectoryMixtureBuilder(tasks: MixtureTasks): MixtureFamilyBuilder {
  const thinking = new Map<string, boolean>()
  const enableThinking = () => (thinking.size === 0 ? undefined : ([...thinking.values()][0] as boolean))
  return groupedFamilyBuilder({
    inputFormat: trajectoryReleaseFormat,
    rowFormat: 'verl_tool_trajectory_messages_parquet + mixture_provenance',
    validator: trajectoryMixtureValidator(tasks, enableThinking),
    async read(spec) {
      const loaded = loadTrajectoryRelease({
        dir: spec.directory,
        task: (tasks.byDataset[spec.dataset] as MixtureTasks['byDataset'][string]).task,
        dataset: spec.dataset,
      })
      const flag = loaded.exportReport.enable_thinking
      const other = [...thinking].find(([, value]) => value !== flag)
      if (other) {
        throw new InvalidInputError({
          code: 'mixture_thinking_mismatch',
          path: spec.directory,
          message: `${spec.dataset} was exported with enable_thinking=${flag}, ${other[0]} with ${other[1]}; one SFT input has one thinking flag.`,
          issues: [
            {
              code: 'mixture_thinking_mismatch',
              path: `${spec.dataset}:export_report.json:enable_thinking`,
              message: String(flag),
            },
          ],
        })
      }
      thinking.set(spec.dataset, flag)
      const bySplit: Record<string, Map<string, TrajectoryRow>> = {}
      for (const split of splitNames) bySplit[split] = new Map(loaded.splits[split].map((row) => [row.source_id, row]))
      return bySplit
    },
    project: projectTrajectory,
    key: (row: TrajectoryMixtureRow) => ({ id: row.mixture_provenance.mixture_id, stage: row.stage }),
    reportExtras: () => ({ enable_thinking: enableThinking() ?? false }),
  })
}
