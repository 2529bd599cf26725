/**
 * @module release/contracts: what every release kind's validator reports (each kind adds its own fields),
 * and the same findings as coded issues, for callers that branch on a code rather than read messages.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'

export interface ReleaseValidation {
  format: string
  valid: boolean
  splits: Record<string, { rows: number; error_count: number; errors: string[] }>
  cross_split_errors: string[]
  report_errors: string[]
}

/** The codes `validationIssues` gives: a split's rows, two splits together, the report and its hashes. */
export const releaseIssueCodes = {
  split: 'release_split_invalid',
  crossSplit: 'release_cross_split',
  report: 'release_report_mismatch',
} as const

/** Every finding of a validation report as an issue: `path` is the file it is about. */
export function validationIssues(validation: ReleaseValidation): InputIssue[] {
  const issues: InputIssue[] = []
  for (const [split, details] of Object.entries(validation.splits))
    for (const message of details.errors) issues.push({ code: releaseIssueCodes.split, path: `${split}.parquet`, message })
  for (const message of validation.cross_split_errors) issues.push({ code: releaseIssueCodes.crossSplit, path: '', message })
  for (const message of validation.report_errors)
    issues.push({ code: releaseIssueCodes.report, path: 'export_report.json', message })
  return issues
}
