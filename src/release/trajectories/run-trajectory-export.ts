/**
 * @module release/trajectories: `releaseops release trajectories export`: canonical records → a
 * published trajectory release. Plans (contract, label-gap gate), builds every trajectory through the
 * env, injects thoughts (`--think-source`), writes train/val/test Parquet into a staging directory beside
 * the target, validates the staged release as `validate` would (every row read back, every tool call
 * re-executed, hashes), writes `export_report.json` and renames the directory into place. Any failure
 * writes the failed audit and leaves no output directory; an existing non-empty target is never touched.
 */

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import { isNonEmptyDirectory, outputExistsError, recoverStalePublications } from '../../io/publish-directory.js'
import { checkFormalExport } from '../canonical/check-formal-export.js'
import type { SplitName } from '../contracts/canonical-record.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import type { ReleaseExportSteps } from '../contracts/release-kind.js'
import { exportRelease } from '../kinds/export-release.js'
import type { TaskOptions } from '../planning/task-options.js'
import { loadTrajectoryPlan } from './plan-trajectories.js'
import { createThoughtProvider, parseThinkSource, type ThoughtProvider } from './think/thought-provider.js'
import { buildExportReport, type TrajectoryExportReport } from './trajectory-export-report.js'
import { defaultMaxThinkTokens, type ThinkOverLimitPolicy } from './trajectory-format.js'
import { trajectoryTools } from './trajectory-tools.js'
import { validateTrajectoryRelease } from './validate-trajectory-release.js'
import { writeTrajectorySplits } from './write-trajectory-splits.js'

export type ExportPhase = 'plan' | 'write' | 'validate' | 'publish'

export interface RunTrajectoryExportOptions extends TaskOptions {
  canonical: string
  outputDir: string
  /** `mock`, `none` or `file:<jsonl file or directory>`. */
  thinkSource: string
  maxThinkTokens?: number
  thinkOverLimit?: ThinkOverLimitPolicy
  allowLabelGaps?: readonly string[]
  allowAnyLabelGap?: boolean
  formal?: boolean
  configFile?: string
  failedAudit?: string
  onPhase?: (phase: ExportPhase) => void
  onProgress?: (split: SplitName, done: number, total: number) => void
}

function formalChecks(options: RunTrajectoryExportOptions, dataset: string): void {
  if (!options.formal) return
  checkFormalExport({ dataset, formal: true, ...(options.configFile ? { configFile: options.configFile } : {}) })
  if (parseThinkSource(options.thinkSource).kind === 'mock') {
    throw new InvalidInputError({
      code: 'mock_thoughts_not_formal',
      path: '--think-source',
      message: 'A formal release cannot use mock thoughts: give --think-source file:<path> (or none to train without thinking).',
      issues: [{ code: 'mock_thoughts_not_formal', path: '--think-source', message: 'mock is refused by --formal' }],
    })
  }
}

/** What the trajectory export checked and loaded before writing. */
export interface TrajectoryExportPlan extends ReturnType<typeof loadTrajectoryPlan> {
  options: RunTrajectoryExportOptions
  dataset: string
  maxThinkTokens: number
  overLimit: ThinkOverLimitPolicy
  provider: ThoughtProvider
  tools: ReturnType<typeof trajectoryTools>
}

function planTrajectoryExport(options: RunTrajectoryExportOptions): TrajectoryExportPlan {
  if (isNonEmptyDirectory(options.outputDir)) throw outputExistsError(options.outputDir)
  recoverStalePublications(options.outputDir)
  const dataset = checkDatasetName(options.dataset)
  formalChecks(options, dataset)
  const maxThinkTokens = options.maxThinkTokens ?? defaultMaxThinkTokens
  const overLimit = options.thinkOverLimit ?? 'error'
  options.onPhase?.('plan')
  const planned = loadTrajectoryPlan(options)
  const provider = createThoughtProvider(options.thinkSource)
  return { ...planned, options, dataset, maxThinkTokens, overLimit, provider, tools: trajectoryTools(gradingV1Spec) }
}

/** Writes the splits and the report into `staging`, validates the staged release as `validate` would. */
function writeTrajectoryRelease(prepared: TrajectoryExportPlan, staging: string): TrajectoryExportReport {
  const { options, dataset, loaded, canonical, plan, provider, maxThinkTokens, overLimit, tools } = prepared
  options.onPhase?.('write')
  const written = writeTrajectorySplits({
    staging,
    plan,
    task: loaded.task,
    dataset,
    tools,
    provider,
    maxThinkTokens,
    overLimit,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  })
  const draft = buildExportReport({
    dataset,
    loaded,
    plan,
    written,
    provider,
    maxThinkTokens,
    overLimit,
    tools,
    canonicalSha256: canonical.sha256,
  })
  const reportPath = join(staging, 'export_report.json')
  writeFileSync(reportPath, `${JSON.stringify(draft, null, 2)}\n`)
  options.onPhase?.('validate')
  const validation = validateTrajectoryRelease({ dir: staging, task: loaded.task, dataset, canonical: canonical.records })
  if (!validation.valid) {
    throw new ReleaseOpsError({
      code: 'staged_release_invalid',
      path: options.outputDir,
      message: `The staged release failed validation: ${[...Object.values(validation.splits).flatMap((split) => split.errors), ...validation.cross_split_errors, ...validation.report_errors].slice(0, 3).join('; ')}`,
      details: { validation },
    })
  }
  const report = {
    ...draft,
    validation: {
      valid: true,
      rows: Object.values(validation.splits).reduce((sum, split) => sum + split.rows, 0),
      checks: validation.checks,
    },
  }
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`)
  options.onPhase?.('publish')
  return report
}

export const trajectoryExportSteps: ReleaseExportSteps<RunTrajectoryExportOptions, TrajectoryExportPlan, TrajectoryExportReport> =
  { stage: 'trajectories export', plan: planTrajectoryExport, write: writeTrajectoryRelease }

export async function runTrajectoryExport(options: RunTrajectoryExportOptions): Promise<TrajectoryExportReport> {
  return exportRelease(trajectoryExportSteps, options)
}
