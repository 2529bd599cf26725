/**
 * @module release/pipeline: the second half of the release line, once every record is built and grouped:
 * quarantine → split → canonical dataset, legacy SFT export and audit reports. Each stage writes its own
 * files; worker threads encode and write them (the canonical file, the SFT files) while this thread audits.
 * Both releases are published only once the audits and the label-gap gate have passed, so a failure
 * publishes nothing.
 */

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { carriedCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { publishDirectory } from '../../io/publish-directory.js'
import { auditPassed, auditPromptConflicts, type BundleAuditReport, bundleAuditReports } from '../audit/prompt-conflict-audit.js'
import type { PromptKeyGroups } from '../audit/prompt-key-groups.js'
import type { ResolutionReport } from '../canonical/build-canonical.js'
import { quarantineConflicts } from '../canonical/run-quarantine-conflicts.js'
import { type SplitReport, splitRecords } from '../canonical/split-records.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import type { LoadedTask } from '../inputs/load-task-files.js'
import { planRecords } from '../planning/record-plan.js'
import { exportLegacySft, type SftExportReport } from '../sft/export-legacy-sft.js'
import { settleable } from '../workers/settleable.js'
import { writeRecordArrayInWorker } from '../workers/write-record-array-in-worker.js'
import type { SftWriters } from '../workers/write-sft-in-workers.js'
import type { releaseLineLayout } from './release-line-layout.js'
import { writeAuditReport } from './release-line-report.js'
import { type StageRecorder, stageTimer } from './stage-timer.js'

export interface PublishLineInputs {
  dataset: string
  seed: number
  quarantine: boolean
  layout: ReturnType<typeof releaseLineLayout>
  /** The canonical records, in processed order. */
  records: CanonicalRecord[]
  /** Their audit grouping, built as they were made. */
  groups: PromptKeyGroups
  resolution: ResolutionReport & { inputs: Record<string, string | null> }
  writers: SftWriters
  loaded: LoadedTask
  standards: { classification: string; grading: string }
  /** Receives each stage's time and row count. */
  record: StageRecorder
}

const secondsSince = (started: number) => (performance.now() - started) / 1000

/** A publication's build stops with this when the line's checks failed: nothing is published. */
class PublicationWithheldError extends ReleaseOpsError {
  constructor() {
    super({ code: 'publication_withheld', message: 'publication withheld: the line failed before its checks passed' })
  }
}

/** The errors of settled publications, except their withholding. */
async function failuresOf(tasks: readonly Promise<PromiseSettledResult<void>[]>[]): Promise<unknown[]> {
  const settled = (await Promise.all(tasks)).flat()
  return settled.flatMap((result) =>
    result.status === 'rejected' && !PublicationWithheldError.isInstance(result.reason) ? [result.reason] : [],
  )
}

export interface PublishedLine {
  rawAudit: BundleAuditReport
  finalAudit: BundleAuditReport
  quarantine: ReturnType<typeof quarantineConflicts>['report'] | undefined
  split: SplitReport
  canonicalSha256: string
  exported: SftExportReport
}

type LineAudit = (audited: { groups: PromptKeyGroups } | { records: readonly CanonicalRecord[] }) => BundleAuditReport
type Timed = ReturnType<typeof stageTimer>
type SplitResult = Awaited<ReturnType<typeof splitRecords>>
type Plan = ReturnType<typeof planRecords>

export async function publishReleaseLine(inputs: PublishLineInputs): Promise<PublishedLine> {
  const { layout, groups } = inputs
  const timed = stageTimer(inputs.record)
  const audit = lineAudit(inputs)
  const { split, quarantine } = await quarantineAndSplit({ inputs, audit, timed })
  // Nothing is published until the audits and the gate have passed: each publication's build waits for
  // this verdict and withholds its directory (removing the staging copy) when it is false.
  const verdict = settleable<boolean>()
  const awaitVerdict = async () => {
    if (!(await verdict.promise)) throw new PublicationWithheldError()
  }
  const canonical = publishCanonical({ inputs, split, quarantine, awaitVerdict })
  // Settled here, inspected below: a failure is rethrown there, never dropped.
  const tasks: Promise<PromiseSettledResult<void>[]>[] = [Promise.allSettled([canonical.published])]
  let exported: SftExportReport | undefined
  let audits: { rawAudit: BundleAuditReport; finalAudit: BundleAuditReport }
  try {
    const plan = exportablePlan(inputs, split)
    const sft = publishSft({ inputs, plan, canonical, awaitVerdict })
    tasks.push(Promise.allSettled([sft.published.then((report) => void (exported = report))]))
    audits = await timed(
      'audits',
      (value) => value.finalAudit.records_audited,
      // The raw audit reads the grouping made with the records; the final one audits the final records.
      () => ({ rawAudit: audit({ groups }), finalAudit: audit({ records: split.records }) }),
    )
    if (!auditPassed(audits.finalAudit))
      throw new InvalidInputError({
        code: 'prompt_conflicts',
        path: layout.audit,
        message: 'The prompt audit still fails after quarantine.',
        issues: [],
      })
  } catch (error) {
    verdict.resolve(false)
    const failures = await failuresOf(tasks)
    // The check's error is the one to report; a publication that also failed for a reason of its own goes with it.
    if (failures.length > 0) throw new AggregateError([error, ...failures], (error as Error).message, { cause: error })
    throw error
  }
  verdict.resolve(true)
  const failures = await failuresOf(tasks)
  if (failures.length > 0) throw failures[0]
  writeAuditReport(layout.rawAudit, audits.rawAudit)
  writeAuditReport(layout.audit, audits.finalAudit)
  return {
    ...audits,
    quarantine,
    split: split.report,
    canonicalSha256: canonical.sha256(),
    exported: exported as SftExportReport,
  }
}

/** The line's prompt audit, of a grouping made with the records or of the records themselves. */
function lineAudit(inputs: PublishLineInputs): LineAudit {
  const keyHashes = new Map<string, string>()
  return (audited) =>
    bundleAuditReports(
      [
        auditPromptConflicts({
          dataset: inputs.dataset,
          records: 'records' in audited ? audited.records : [],
          classificationSha256: inputs.standards.classification,
          gradingSha256: inputs.standards.grading,
          split: 'all',
          levelField: inputs.loaded.task.grading.gt_field,
          source: 'canonical',
          keyHashes,
          ...('groups' in audited ? { groups: audited.groups } : {}),
        }),
      ],
      'all',
    )
}

/** The records, quarantined when their prompt keys conflict, split; the quarantined records go out of scope here. */
async function quarantineAndSplit(step: {
  inputs: PublishLineInputs
  audit: LineAudit
  timed: Timed
}): Promise<{ split: SplitResult; quarantine: PublishedLine['quarantine'] }> {
  const { records, quarantine } = await quarantineStep(step)
  const levelField = step.inputs.loaded.task.grading.gt_field
  const split = await step.timed(
    'split',
    (value) => value.report.included_size,
    () => splitRecords(records, { splitType: 'random', ratios: [0.8, 0.1, 0.1], seed: step.inputs.seed, levelField }),
  )
  return { split, quarantine }
}

/**
 * Conflicting prompt keys: quarantined when the line allows it, else the raw audit is written and the
 * line refused. The records to split, and the quarantine's report.
 */
async function quarantineStep(step: {
  inputs: PublishLineInputs
  audit: LineAudit
  timed: Timed
}): Promise<{ records: CanonicalRecord[]; quarantine: PublishedLine['quarantine'] }> {
  const { inputs, audit } = step
  const { groups, layout } = inputs
  groups.check()
  const conflicting = groups.conflictingIds()
  if (conflicting.size === 0) return { records: inputs.records, quarantine: undefined }
  if (!inputs.quarantine) {
    const rawAudit = audit({ groups })
    writeAuditReport(layout.rawAudit, rawAudit)
    throw new InvalidInputError({
      code: 'prompt_conflicts',
      path: layout.rawAudit,
      message: `The prompt audit found ${rawAudit.conflict_keys} conflicting prompt key(s); report: ${layout.rawAudit}.`,
      issues: [],
    })
  }
  const levelField = inputs.loaded.task.grading.gt_field
  const result = await step.timed(
    'quarantine',
    (value) => value.report.quarantined_records,
    () => quarantineConflicts({ records: inputs.records, dataset: inputs.dataset, levelField, conflicting }),
  )
  return { records: result.records, quarantine: result.report }
}

/** The canonical file: serialised here, encoded and written by a worker while this thread goes on. */
function publishCanonical(step: {
  inputs: PublishLineInputs
  split: SplitResult
  quarantine: PublishedLine['quarantine']
  awaitVerdict: () => Promise<void>
}): { published: Promise<void>; sha256: () => string } {
  const { inputs, split } = step
  const count = split.records.length
  let sha256 = ''
  const started = performance.now()
  const published = publishDirectory({
    target: inputs.layout.canonical,
    async build(staging) {
      sha256 = await writeRecordArrayInWorker(join(staging, 'all.json'), split.records)
      const reports = { resolution_report: inputs.resolution, quarantine_report: step.quarantine, split_report: split.report }
      for (const [name, value] of Object.entries(reports)) {
        if (value !== undefined) writeFileSync(join(staging, `${name}.json`), `${JSON.stringify(value, null, 2)}\n`)
      }
      await step.awaitVerdict()
    },
  }).then(() => inputs.record('write canonical', secondsSince(started), count))
  return { published, sha256: () => sha256 }
}

/** The split's export plan, refused when it has issues or the label-gap gate failed. */
function exportablePlan(inputs: PublishLineInputs, split: SplitResult): Plan {
  const plan = planRecords({ records: split.records, task: inputs.loaded.task, source: 'canonical' })
  if (plan.issues.length > 0 || plan.gate.status === 'failed') {
    throw new InvalidInputError({
      code: carriedCode(plan.issues[0]?.code ?? 'label_gap'),
      message: `The split cannot be exported: ${plan.issues[0]?.message ?? JSON.stringify(plan.gate)}`,
      issues: plan.issues.slice(0, 100),
    })
  }
  return plan
}

/** The SFT files: val and test built and written by a worker, train built here and written by another. */
function publishSft(step: {
  inputs: PublishLineInputs
  plan: Plan
  canonical: { published: Promise<void>; sha256: () => string }
  awaitVerdict: () => Promise<void>
}): { published: Promise<SftExportReport> } {
  const { inputs, plan, canonical } = step
  const started = performance.now()
  const rows = plan.splits.train.length + plan.splits.val.length + plan.splits.test.length
  let exported: SftExportReport | undefined
  const published = publishDirectory({
    target: inputs.layout.sftRelease,
    async build(staging) {
      exported = await exportLegacySft({
        staging,
        dataset: inputs.dataset,
        plan,
        loaded: inputs.loaded,
        canonicalSha256: canonical.published.then(() => canonical.sha256()),
        writers: inputs.writers,
      })
      await step.awaitVerdict()
    },
  }).then(() => {
    inputs.record('sft export', secondsSince(started), rows)
    return exported as SftExportReport
  })
  return { published }
}
