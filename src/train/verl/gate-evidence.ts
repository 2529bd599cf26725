/**
 * @module train/verl: the rollout gate as launch evidence. RLOO may start only from a passed, formal
 * `gate rollout` report (runbook §6) that cannot have been talked around: bounds exactly [0.05, 0.30]
 * (exploration reports with custom bounds are refused), enough scored episodes (the whole split or at
 * least 200), this very release and split (export report and split hashes), the checkpoint being launched
 * (the endpoint's served `root`), and the run's format, env and thinking mode. Each refusal has a stable
 * code; the gate's model identity, rate and interval go into the launch manifest.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parquetMetadata } from 'hyparquet'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { gradingGateProfile, signalReasons } from '../../eval/gate/gate-reasons.js'
import { gateReportSchema } from '../../eval/gate/gate-report.js'
import { formalGateBounds, requiredGateDenominator } from '../../eval/gate/rollout-gate-rule.js'
import { modelFamilyFacts } from './model-family.js'
import type { CheckResult } from './verl-patches.js'
import type { VerlConfig } from './write-verl-config.js'

export interface GateEvidenceOptions {
  /** The split the gate must cover (default `val`). */
  split?: string
  /** The fewest scored episodes (default: the split's episodes, at most 200). */
  minDenominator?: number
}

export interface GateRefusal {
  code: string
  message: string
}

function splitRows(config: VerlConfig, split: string): number | null {
  const path = join(config.release.directory, `${split}.parquet`)
  if (!existsSync(path)) return null
  const bytes = readFileSync(path)
  return Number(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)).num_rows)
}

/** Why this report cannot launch this run (empty when it can). */
function gateRefusals(
  report: ReturnType<typeof gateReportSchema.parse>,
  config: VerlConfig,
  options: GateEvidenceOptions = {},
): GateRefusal[] {
  const refusals: GateRefusal[] = []
  const refuse = (code: string, message: string) => refusals.push({ code, message })
  const release = report.release as { export_report_sha256?: string; split?: string; split_parquet_sha256?: string }
  const rule = report.rule as typeof report.rule & { formal?: unknown }
  const expectedSplit = options.split ?? 'val'
  if (report.status !== 'passed')
    refuse(
      'gate_not_passed',
      `the gate ${report.status === 'failed' ? `failed (rate ${report.rate})` : 'ended in an infrastructure error'}`,
    )
  // Every reason the report gives, and every one today's thresholds find in its signals (an older or
  // edited report is judged again, not trusted).
  const judged = signalReasons({
    samples: report.limits.samples,
    mixedShare: report.per_prompt.mixed_share,
    signals: report.signals,
    profile: gradingGateProfile,
  })
  for (const code of new Set([...report.reasons, ...judged].map((reason) => reason.code)))
    if (code !== 'rate_out_of_bounds' && code !== 'denominator_below_minimum')
      refuse(
        `gate_${code}`,
        (judged.find((reason) => reason.code === code) ?? report.reasons.find((reason) => reason.code === code))?.message ?? code,
      )
  if (rule.lower !== formalGateBounds.lower || rule.upper !== formalGateBounds.upper || rule.formal !== true)
    refuse(
      'gate_bounds_not_formal',
      `the gate's bounds are [${rule.lower}, ${rule.upper}]${rule.formal === true ? '' : ' (not a formal run)'}; a formal gate uses [${formalGateBounds.lower}, ${formalGateBounds.upper}]`,
    )
  if (release.export_report_sha256 !== config.release.export_report_sha256)
    refuse('gate_release_mismatch', 'the gate ran on another release')
  else if (release.split !== expectedSplit)
    refuse('gate_split_mismatch', `the gate ran on ${String(release.split)}, not ${expectedSplit}`)
  else if (release.split_parquet_sha256 !== config.release.artifacts_sha256[`${expectedSplit}.parquet`])
    refuse('gate_split_mismatch', `the gate's ${expectedSplit} split differs from the release's`)
  const rows = splitRows(config, expectedSplit)
  const samples = Math.max(1, report.limits.samples)
  const required = requiredGateDenominator({
    splitEpisodes: (rows ?? 0) * samples,
    ...(options.minDenominator !== undefined ? { minimum: options.minDenominator } : {}),
  })
  if (rows === null) refuse('gate_split_mismatch', `the release has no ${expectedSplit} split`)
  else if (report.denominator < required)
    refuse(
      'gate_denominator_below_minimum',
      `the gate scored ${report.denominator} episodes; at least ${required} are needed (${rows} ${expectedSplit} rows × ${samples} samples, at most 200)`,
    )
  // vLLM names a served checkpoint in `root`; a LoRA module's `root` is the adapter, its `parent` the base.
  const served = report.model.served as { root?: unknown; parent?: unknown } | null
  const same = (left: unknown, right: string | undefined) =>
    typeof left === 'string' && right !== undefined && resolve(left) === resolve(right)
  const adapter = config.settings.lora_adapter_path
  if (typeof served?.root !== 'string')
    refuse(
      'gate_model_unidentified',
      `the endpoint did not name the checkpoint it served (model ${report.model.name} has no root)`,
    )
  else if (
    !(adapter === undefined && same(served.root, config.settings.model_path)) &&
    !(same(served.root, adapter) && same(served.parent, config.settings.model_path))
  )
    refuse(
      'gate_model_mismatch',
      `the gate rolled out ${served.root}${typeof served.parent === 'string' ? ` on ${served.parent}` : ''}, the run launches ${config.settings.model_path}${adapter ? ` with adapter ${adapter}` : ''}`,
    )
  if (report.thinking.enable_thinking !== config.settings.enable_thinking)
    refuse(
      'gate_thinking_mismatch',
      `the gate ran with enable_thinking=${report.thinking.enable_thinking}, the run uses ${config.settings.enable_thinking}`,
    )
  if (report.chat.trajectory_format !== nativeToolTrajectoryFormat)
    refuse('gate_format_mismatch', `the gate's format is ${report.chat.trajectory_format}`)
  // A gate rendered and parsed in another family's format measured another prompt (native: the endpoint's).
  const family = modelFamilyFacts[config.model_family]
  if (report.chat.mode !== 'native' && family !== undefined && report.chat.mode !== family.chat_format)
    refuse('gate_format_mismatch', `the gate spoke ${report.chat.mode}, the run's model is ${config.model_family}`)
  if (report.env.id !== 'grading-v1') refuse('gate_env_mismatch', `the gate ran on ${report.env.id}, not grading-v1`)
  return refusals
}

export function checkGateReport(path: string | undefined, config: VerlConfig, options: GateEvidenceOptions = {}): CheckResult {
  const name = 'rollout_gate'
  const refused = (code: string, detail: string): CheckResult => ({
    name,
    passed: false,
    detail: `[${code}] ${detail}`,
    facts: { reasons: [code] },
  })
  if (path === undefined)
    return refused(
      'gate_report_missing',
      'no rollout gate report (--gate-report): RLOO starts only after a passed `gate rollout` of the reference',
    )
  if (!existsSync(path)) return refused('gate_report_missing', `${path} does not exist`)
  let report: ReturnType<typeof gateReportSchema.parse>
  try {
    report = gateReportSchema.parse(JSON.parse(readFileSync(path, 'utf8')))
  } catch (error) {
    return refused('gate_report_invalid', `${path} is not a rollout gate report: ${(error as Error).message.slice(0, 300)}`)
  }
  const refusals = gateRefusals(report, config, options)
  const release = report.release as { split?: string }
  return {
    name,
    passed: refusals.length === 0,
    detail:
      refusals.length === 0
        ? `passed: ${report.numerator}/${report.denominator} nonzero (${report.rate}) in [${report.rule.lower}, ${report.rule.upper}]`
        : refusals.map((refusal) => `[${refusal.code}] ${refusal.message}`).join('; '),
    facts: {
      report: path,
      reasons: refusals.map((refusal) => refusal.code),
      status: report.status,
      numerator: report.numerator,
      denominator: report.denominator,
      rate: report.rate,
      ci95: report.ci95,
      bounds: [report.rule.lower, report.rule.upper],
      mixed_share: report.per_prompt.mixed_share,
      model: report.model,
      split: release.split,
      finished_at: report.finished_at,
    },
  }
}
