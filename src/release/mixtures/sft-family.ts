/**
 * @module release/mixtures: the `sft` family: legacy SFT releases mixed with their contract intact. Every
 * source keeps its stage-1/stage-2 pair; its rows are rebuilt for the mixture id (the legacy contract
 * seeds the candidate order with the source id, so a renamed source gets its candidates re-permuted) and
 * carry `mixture_provenance {dataset, original_source_sha256, replica}`. Inputs are validated row by row
 * with the legacy validator first, and so is the output.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { LegacyPromptBuilder } from '../../envs/grading/legacy/legacy-prompts.js'
import { splitNames } from '../contracts/canonical-record.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { readParquetRows } from '../parquet/parquet-rows.js'
import { type ParquetField, shapes } from '../parquet/parquet-shape.js'
import { legacySftFields, legacySftFormat } from '../sft/legacy-sft-rows.js'
import { checkLegacyRow, type RowCheckContext, StagePairs } from '../sft/validate-legacy-rows.js'
import type { MixtureInputSpec } from './mixture-inputs.js'
import { mixtureHash, type PlannedEpisode } from './mixture-plan.js'
import type { MixtureTasks } from './mixture-tasks.js'
import { type MixtureRowValidator, unknownDatasetIssue } from './validate-mixture-release.js'

export const sftInputFormat = legacySftFormat

export interface SftMixtureRow {
  messages: { role: string; content: string }[]
  stage: 'stage1' | 'stage2'
  source_id: string
  metadata: Record<string, string>
  ground_truth: string
  candidates: string[]
  ground_truth_level: string
  mixture_provenance?: { dataset: string; original_source_sha256: string; replica: number }
}

function sftMixtureColumns(metadataFields: readonly string[], provenance = true): ParquetField[] {
  const provenanceShape = shapes.struct({ dataset: shapes.string, original_source_sha256: shapes.string, replica: shapes.int64 })
  return [...legacySftFields(metadataFields), ...(provenance ? [{ name: 'mixture_provenance', shape: provenanceShape }] : [])]
}

function rowContext(task: GradingTask): RowCheckContext {
  return { task, builder: new LegacyPromptBuilder(task), fields: task.taskConfig.metadata_fields }
}

/** Per split, the validated stage pair of every source of one legacy SFT release. */
export async function readSftInput(
  spec: MixtureInputSpec,
  loaded: LoadedTask,
): Promise<Record<string, Map<string, [SftMixtureRow, SftMixtureRow]>>> {
  const context = rowContext(loaded.task)
  const columns = sftMixtureColumns(loaded.task.taskConfig.metadata_fields, false)
  const bySplit: Record<string, Map<string, [SftMixtureRow, SftMixtureRow]>> = {}
  const seen = new Map<string, string>()
  for (const split of splitNames) {
    const file = await readParquetRows(`${spec.directory}/${split}.parquet`, columns)
    const pairs = new StagePairs()
    const errors: string[] = []
    const groups = new Map<string, SftMixtureRow[]>()
    file.rows.forEach((row, index) => {
      for (const issue of checkLegacyRow(row, context)) errors.push(`${split} row ${index}: ${issue.message}`)
      pairs.add(row)
      const typed = row as unknown as SftMixtureRow
      groups.set(typed.source_id, [...(groups.get(typed.source_id) ?? []), typed])
    })
    errors.push(...pairs.errors().map((error) => `${split}: ${error}`))
    for (const sourceId of groups.keys()) {
      const other = seen.get(sourceId)
      if (other !== undefined) errors.push(`${split}: source_id ${sourceId} is also in ${other}`)
      seen.set(sourceId, split)
    }
    if (errors.length > 0) {
      throw new InvalidInputError({
        code: 'mixture_input_invalid',
        path: spec.directory,
        message: `Input release ${spec.dataset} fails legacy SFT validation: ${errors[0]}${errors.length > 1 ? ` (+${errors.length - 1} more)` : ''}`,
        issues: errors.slice(0, 50).map((error) => ({ code: 'mixture_input_invalid', path: spec.dataset, message: error })),
      })
    }
    bySplit[split] = new Map(
      [...groups].map(([sourceId, rows]) => {
        const stage1 = rows.find((row) => row.stage === 'stage1') as SftMixtureRow
        const stage2 = rows.find((row) => row.stage === 'stage2') as SftMixtureRow
        return [sourceId, [stage1, stage2]]
      }),
    )
  }
  return bySplit
}

/** The rebuilt stage pair of a planned episode. */
export function projectSft(
  episode: PlannedEpisode,
  pair: [SftMixtureRow, SftMixtureRow],
  builder: LegacyPromptBuilder,
): SftMixtureRow[] {
  const [stage1] = pair
  const rebuilt = builder.build({
    sourceId: episode.id,
    metadata: stage1.metadata,
    groundTruth: stage1.ground_truth,
    level: stage1.ground_truth_level,
  })
  const provenance = { dataset: episode.dataset, original_source_sha256: mixtureHash(episode.sourceId), replica: episode.cycle }
  return (['stage1', 'stage2'] as const).map((stage) => {
    const [system, user, assistant] = stage === 'stage1' ? rebuilt.stage1 : rebuilt.stage2
    return {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
        { role: 'assistant', content: assistant },
      ],
      stage,
      source_id: episode.id,
      metadata: { ...stage1.metadata },
      ground_truth: stage1.ground_truth,
      candidates: rebuilt.candidates,
      ground_truth_level: stage1.ground_truth_level,
      mixture_provenance: provenance,
    }
  })
}

export function sftKey(row: SftMixtureRow): { id: string; stage: string } {
  return { id: row.source_id, stage: row.stage }
}

export function sftValidator(tasks: MixtureTasks): MixtureRowValidator {
  const contexts = new Map(Object.entries(tasks.byDataset).map(([dataset, loaded]) => [dataset, rowContext(loaded.task)]))
  return {
    family: 'sft',
    columns: sftMixtureColumns(tasks.task.metadata_fields),
    stages: ['stage1', 'stage2'],
    key(row) {
      const provenance = row.mixture_provenance as Record<string, unknown> | null
      if (typeof row.source_id !== 'string' || !provenance || typeof provenance.dataset !== 'string') return null
      return { id: row.source_id, stage: String(row.stage), dataset: provenance.dataset }
    },
    check(row, dataset) {
      const context = contexts.get(dataset)
      if (!context) return [unknownDatasetIssue(dataset)]
      const errors = checkLegacyRow(row, context)
      const provenance = row.mixture_provenance as Record<string, unknown>
      if (typeof provenance.original_source_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(provenance.original_source_sha256))
        errors.push({
          code: 'mixture_provenance',
          path: 'mixture_provenance.original_source_sha256',
          message: 'mixture_provenance.original_source_sha256 must be a sha256',
        })
      const cycle = typeof row.source_id === 'string' ? Number(row.source_id.slice(-4)) : Number.NaN
      if (provenance.replica !== cycle)
        errors.push({
          code: 'mixture_provenance',
          path: 'mixture_provenance.replica',
          message: 'mixture_provenance.replica must be the id cycle',
        })
      if (
        typeof provenance.original_source_sha256 === 'string' &&
        typeof row.source_id === 'string' &&
        !row.source_id.includes(`:${provenance.original_source_sha256.slice(0, 20)}:`)
      )
        errors.push({
          code: 'mixture_provenance',
          path: 'source_id',
          message: 'mixture id does not derive from mixture_provenance.original_source_sha256',
        })
      return errors
    },
  }
}
