/**
 * @module release/mixtures: `releaseops release rl validate-cascade`: the `rl-cascade` mixture checked as
 * VeRL will consume it: stage-1 rows only, each passing the RL row contract of its dataset (prompt rebuilt
 * from the task, the native trajectory format, exactly the extra_info keys the agent loop accepts), plus
 * every mixture-level check (`validateMixtureRelease`).
 */
import { join } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { writeJsonReport } from '../../io/atomic-file.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { checkRlRow, type RlRowContext, rlRowContext } from '../rl/check-rl-row.js'
import { type MixtureInputSpec, parseMixtureInputs } from './mixture-inputs.js'
import type { MixtureValidationReport } from './mixture-report.js'
import { loadMixtureTasks, type MixtureTaskFiles, type MixtureTasks } from './mixture-tasks.js'
import { rlCascadeColumns } from './rl-cascade-family.js'
import { type MixtureRowValidator, unknownDatasetIssue, validateMixtureRelease } from './validate-mixture-release.js'

export function rlCascadeValidator(tasks: MixtureTasks): MixtureRowValidator {
  const contexts = new Map<string, RlRowContext>()
  for (const [dataset, loaded] of Object.entries(tasks.byDataset))
    contexts.set(dataset, rlRowContext({ dataset, task: loaded.task, stages: ['stage1'] }))
  return {
    family: 'rl-cascade',
    columns: rlCascadeColumns(tasks.task.metadata_fields),
    stages: ['stage1'],
    trajectoryFormat: nativeToolTrajectoryFormat,
    key(row) {
      const extra = row.extra_info as Record<string, unknown> | null
      if (!extra || typeof extra.source_id !== 'string' || typeof extra.dataset !== 'string') return null
      return { id: extra.source_id, stage: String(extra.stage), dataset: extra.dataset }
    },
    check(row, dataset) {
      const context = contexts.get(dataset)
      return context ? checkRlRow(row, context) : [unknownDatasetIssue(dataset)]
    },
  }
}

/** The datasets a mixture report names (to know which manifest entries to load). */
function mixtureReportDatasets(directory: string): string[] {
  const file = readJsonFile(join(directory, 'export_report.json'), { kind: 'mixture export report', strict: true })
  const datasets = (file.value as { datasets?: unknown }).datasets
  return Array.isArray(datasets) ? datasets.filter((name): name is string => typeof name === 'string') : []
}

export async function runValidateCascade(
  options: Omit<MixtureTaskFiles, 'datasets'> & {
    datasetDir: string
    inputs?: readonly string[]
    report?: string
    overwrite?: boolean
  },
): Promise<MixtureValidationReport> {
  const datasets = mixtureReportDatasets(options.datasetDir)
  if (datasets.length === 0) {
    throw new InvalidInputError({
      code: 'invalid_mixture_report',
      path: join(options.datasetDir, 'export_report.json'),
      message: 'The mixture report names no datasets.',
      issues: [],
    })
  }
  const tasks = loadMixtureTasks({ ...options, datasets })
  const inputs: MixtureInputSpec[] | undefined =
    options.inputs && options.inputs.length > 0 ? parseMixtureInputs(options.inputs) : undefined
  const report = await validateMixtureRelease({
    directory: options.datasetDir,
    validator: rlCascadeValidator(tasks),
    tasks,
    ...(inputs ? { inputs } : {}),
  })
  if (options.report) {
    writeJsonReport({ path: options.report, value: report, ...(options.overwrite ? { overwrite: true } : {}) })
  }
  return report
}
