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

type GateReport = ReturnType<typeof gateReportSchema.parse>
const refusal = (code: string, message: string): GateRefusal => ({ code, message })

/** A gate that did not pass, and every reason the report gives or today's thresholds find in its signals. */
function outcomeRefusals(report: GateReport): GateRefusal[] {
  const refusals: GateRefusal[] = []
  if (report.status !== 'passed')
    refusals.push(
      refusal(
        'gate_not_passed',
        `the gate ${report.status === 'failed' ? `failed (rate ${report.rate})` : 'ended in an infrastructure error'}`,
      ),
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
      refusals.push(
        refusal(
          `gate_${code}`,
          (judged.find((reason) => reason.code === code) ?? report.reasons.find((reason) => reason.code === code))?.message ??
            code,
        ),
      )
  return refusals
}

/** Bounds other than the formal [0.05, 0.30], or a run not marked formal. */
export function boundsRefusals(report: GateReport): GateRefusal[] {
  const rule = report.rule as typeof report.rule & { formal?: unknown }
  if (rule.lower === formalGateBounds.lower && rule.upper === formalGateBounds.upper && rule.formal === true) return []
  return [
    refusal(
      'gate_bounds_not_formal',
      `the gate's bounds are [${rule.lower}, ${rule.upper}]${rule.formal === true ? '' : ' (not a formal run)'}; a formal gate uses [${formalGateBounds.lower}, ${formalGateBounds.upper}]`,
    ),
  ]
}

/** Another release, another split, or a split whose bytes differ from the release's. */
function releaseRefusals(report: GateReport, config: VerlConfig, split: string): GateRefusal[] {
  const release = report.release as { export_report_sha256?: string; split?: string; split_parquet_sha256?: string }
  if (release.export_report_sha256 !== config.release.export_report_sha256)
    return [refusal('gate_release_mismatch', 'the gate ran on another release')]
  if (release.split !== split) return [refusal('gate_split_mismatch', `the gate ran on ${String(release.split)}, not ${split}`)]
  if (release.split_parquet_sha256 !== config.release.artifacts_sha256[`${split}.parquet`])
    return [refusal('gate_split_mismatch', `the gate's ${split} split differs from the release's`)]
  return []
}

/** Too few scored episodes for a split of `rows` rows (null: the release has no such split). */
export function denominatorRefusals(options: {
  report: GateReport
  rows: number | null
  split: string
  minDenominator?: number | undefined
}): GateRefusal[] {
  const { report, rows, split } = options
  const samples = Math.max(1, report.limits.samples)
  const required = requiredGateDenominator({
    splitEpisodes: (rows ?? 0) * samples,
    ...(options.minDenominator !== undefined ? { minimum: options.minDenominator } : {}),
  })
  if (rows === null) return [refusal('gate_split_mismatch', `the release has no ${split} split`)]
  if (report.denominator >= required) return []
  return [
    refusal(
      'gate_denominator_below_minimum',
      `the gate scored ${report.denominator} episodes; at least ${required} are needed (${rows} ${split} rows × ${samples} samples, at most 200)`,
    ),
  ]
}

/** A served checkpoint the endpoint did not name, or another one than the run launches (base, or base + adapter). */
export function modelRefusals(report: GateReport, settings: Pick<VerlConfig['settings'], 'model_path' | 'lora_adapter_path'>) {
  // vLLM names a served checkpoint in `root`; a LoRA module's `root` is the adapter, its `parent` the base.
  const served = report.model.served as { root?: unknown; parent?: unknown } | null
  const same = (left: unknown, right: string | undefined) =>
    typeof left === 'string' && right !== undefined && resolve(left) === resolve(right)
  const adapter = settings.lora_adapter_path
  if (typeof served?.root !== 'string')
    return [
      refusal(
        'gate_model_unidentified',
        `the endpoint did not name the checkpoint it served (model ${report.model.name} has no root)`,
      ),
    ]
  if (
    !(adapter === undefined && same(served.root, settings.model_path)) &&
    !(same(served.root, adapter) && same(served.parent, settings.model_path))
  )
    return [
      refusal(
        'gate_model_mismatch',
        `the gate rolled out ${served.root}${typeof served.parent === 'string' ? ` on ${served.parent}` : ''}, the run launches ${settings.model_path}${adapter ? ` with adapter ${adapter}` : ''}`,
      ),
    ]
  return []
}

/** Another thinking mode, trajectory format, chat format or env than the run's. */
function modeRefusals(report: GateReport, config: VerlConfig): GateRefusal[] {
  const refusals: GateRefusal[] = []
  if (report.thinking.enable_thinking !== config.settings.enable_thinking)
    refusals.push(
      refusal(
        'gate_thinking_mismatch',
        `the gate ran with enable_thinking=${report.thinking.enable_thinking}, the run uses ${config.settings.enable_thinking}`,
      ),
    )
  if (report.chat.trajectory_format !== nativeToolTrajectoryFormat)
    refusals.push(refusal('gate_format_mismatch', `the gate's format is ${report.chat.trajectory_format}`))
  // A gate rendered and parsed in another family's format measured another prompt (native: the endpoint's).
  const family = modelFamilyFacts[config.model_family]
  if (report.chat.mode !== 'native' && family !== undefined && report.chat.mode !== family.chat_format)
    refusals.push(
      refusal('gate_format_mismatch', `the gate spoke ${report.chat.mode}, the run's model is ${config.model_family}`),
    )
  if (report.env.id !== 'grading-v1')
    refusals.push(refusal('gate_env_mismatch', `the gate ran on ${report.env.id}, not grading-v1`))
  return refusals
}

/** Why this report cannot launch this run (empty when it can). */
function gateRefusals(report: GateReport, config: VerlConfig, options: GateEvidenceOptions = {}): GateRefusal[] {
  const split = options.split ?? 'val'
  return [
    ...outcomeRefusals(report),
    ...boundsRefusals(report),
    ...releaseRefusals(report, config, split),
    ...denominatorRefusals({ report, rows: splitRows(config, split), split, minDenominator: options.minDenominator }),
    ...modelRefusals(report, config.settings),
    ...modeRefusals(report, config),
  ]
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
  let report: GateReport
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
