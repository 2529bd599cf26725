/**
 * @module train/verl: the rollout gate as launch evidence. RLOO may start only from a passed `gate rollout`
 * report (runbook §6) of this very release (export report and split hashes), rolled out in the run's
 * format, env and thinking mode; the gate's model identity, rate and interval go into the launch manifest.
 */
import { existsSync, readFileSync } from 'node:fs'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { gateReportSchema } from '../../eval/gate/gate-report.js'
import type { CheckResult } from './verl-patches.js'
import type { VerlConfig } from './write-verl-config.js'

export function checkGateReport(path: string | undefined, config: VerlConfig): CheckResult {
  const name = 'rollout_gate'
  if (path === undefined)
    return {
      name,
      passed: false,
      detail: 'no rollout gate report (--gate-report): RLOO starts only after a passed `gate rollout` of the reference',
    }
  if (!existsSync(path)) return { name, passed: false, detail: `${path} does not exist` }
  let report: ReturnType<typeof gateReportSchema.parse>
  try {
    report = gateReportSchema.parse(JSON.parse(readFileSync(path, 'utf8')))
  } catch (error) {
    return { name, passed: false, detail: `${path} is not a rollout gate report: ${(error as Error).message.slice(0, 300)}` }
  }
  const release = report.release as { export_report_sha256?: string; split?: string; split_parquet_sha256?: string }
  const problems: string[] = []
  if (report.status !== 'passed')
    problems.push(`the gate ${report.status === 'failed' ? `failed (rate ${report.rate})` : 'ended in an infrastructure error'}`)
  if (release.export_report_sha256 !== config.release.export_report_sha256) problems.push('the gate ran on another release')
  else if (release.split_parquet_sha256 !== config.release.artifacts_sha256[`${release.split}.parquet`])
    problems.push(`the gate's ${String(release.split)} split differs from the release's`)
  if (report.thinking.enable_thinking !== config.settings.enable_thinking)
    problems.push(
      `the gate ran with enable_thinking=${report.thinking.enable_thinking}, the run uses ${config.settings.enable_thinking}`,
    )
  if (report.chat.trajectory_format !== nativeToolTrajectoryFormat)
    problems.push(`the gate's format is ${report.chat.trajectory_format}`)
  if (report.env.id !== 'grading-v1') problems.push(`the gate ran on ${report.env.id}, not grading-v1`)
  return {
    name,
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? `passed: ${report.numerator}/${report.denominator} nonzero (${report.rate}) in [${report.rule.lower}, ${report.rule.upper}]`
        : problems.join('; '),
    facts: {
      report: path,
      status: report.status,
      numerator: report.numerator,
      denominator: report.denominator,
      rate: report.rate,
      ci95: report.ci95,
      mixed_share: report.per_prompt.mixed_share,
      model: report.model,
      split: release.split,
      finished_at: report.finished_at,
    },
  }
}
