/**
 * @module train/verl: what a VeRL run needs to know about the release it trains on, read from the
 * release's `export_report.json`: which kind of run it feeds (trajectory SFT rows → `sft`; an `rl-cascade`
 * mixture → `rloo`; a raw RL release's stage2 rows are no episodes, so it feeds none), its trajectory format id, its thinking flag, its datasets, and the
 * artifact hashes, each re-checked against the files.
 */

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { ErrorCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256File, sha256Hex } from '../../io/sha256.js'
import { splitNames } from '../../release/contracts/canonical-record.js'
import type { VerlRunKind } from './verl-run-settings.js'

const releaseKinds = ['rl', 'rl-cascade', 'trajectory', 'trajectory-mixture'] as const
export type ReleaseKind = (typeof releaseKinds)[number]

export interface VerlRelease {
  directory: string
  kind: ReleaseKind
  format: string
  trajectory_format: string | null
  /** The rows' thinking flag (trajectory SFT releases); null for RL rows, which carry none. */
  enable_thinking: boolean | null
  datasets: string[]
  export_report_sha256: string
  artifacts_sha256: Record<string, string>
}

/** Which run each release kind feeds (an RL release's stage2 rows are not episodes: RLOO takes its rl-cascade). */
export const releaseRunKind: Record<ReleaseKind, VerlRunKind | null> = {
  rl: null,
  'rl-cascade': 'rloo',
  trajectory: 'sft',
  'trajectory-mixture': 'sft',
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function invalid(path: string, code: ErrorCode, message: string): InvalidInputError {
  return new InvalidInputError({ code, path, message, issues: [{ code, path, message }] })
}

function kindOf(report: Record<string, unknown>, path: string): ReleaseKind {
  if (report.format === 'verl_rl_parquet') return 'rl'
  if (report.format === 'verl_tool_trajectory_messages_parquet') return 'trajectory'
  if (report.format === 'releaseops-verl-mixture-v1' && report.family === 'rl-cascade') return 'rl-cascade'
  if (report.format === 'releaseops-verl-mixture-v1' && report.family === 'trajectory') return 'trajectory-mixture'
  throw invalid(
    path,
    'unsupported_release',
    `${path} is a ${String(report.format)}${report.family ? ` (${String(report.family)})` : ''} release; VeRL runs take RL releases, rl-cascade mixtures, trajectory releases or trajectory mixtures.`,
  )
}

/** Reads and checks a release directory: a passed, published release whose artifacts still hash as recorded. */
export function readVerlRelease(directory: string): VerlRelease {
  const absolute = resolve(directory)
  const reportPath = join(absolute, 'export_report.json')
  const file = readJsonFile(reportPath, { kind: 'release export report', strict: true })
  if (!isObject(file.value)) throw invalid(reportPath, 'invalid_release_report', `${reportPath} is not a JSON object.`)
  const report = file.value
  const kind = kindOf(report, reportPath)
  const release = isObject(report.release) ? report.release : {}
  if (release.status !== 'passed' || release.published !== true)
    throw invalid(reportPath, 'release_not_passed', `${absolute} is not a passed, published release.`)
  const recorded = isObject(release.artifacts_sha256) ? release.artifacts_sha256 : {}
  const artifacts: Record<string, string> = {}
  for (const split of splitNames) {
    const name = `${split}.parquet`
    const path = join(absolute, name)
    if (!existsSync(path)) throw invalid(path, 'release_artifact_missing', `${path} is missing.`)
    const digest = sha256File(path)
    if (recorded[name] !== digest)
      throw invalid(
        path,
        'artifact_hash_mismatch',
        `${path} has sha256 ${digest}; export_report.json records ${String(recorded[name])}.`,
      )
    artifacts[name] = digest
  }
  const datasets = Array.isArray(report.datasets)
    ? report.datasets.map(String)
    : typeof report.dataset === 'string'
      ? [report.dataset]
      : []
  return {
    directory: absolute,
    kind,
    format: String(report.format),
    trajectory_format: typeof report.trajectory_format === 'string' ? report.trajectory_format : null,
    enable_thinking: typeof report.enable_thinking === 'boolean' ? report.enable_thinking : null,
    datasets,
    export_report_sha256: sha256Hex(file.bytes),
    artifacts_sha256: artifacts,
  }
}
