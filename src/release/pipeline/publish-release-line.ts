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

export async function publishReleaseLine(inputs: PublishLineInputs): Promise<PublishedLine> {
  const { layout, groups } = inputs
  const timed = stageTimer(inputs.record)
  const levelField = inputs.loaded.task.grading.gt_field
  const keyHashes = new Map<string, string>()
  const audit = (audited: { groups: PromptKeyGroups } | { records: readonly CanonicalRecord[] }): BundleAuditReport =>
    bundleAuditReports(
      [
        auditPromptConflicts({
          dataset: inputs.dataset,
          records: 'records' in audited ? audited.records : [],
          classificationSha256: inputs.standards.classification,
          gradingSha256: inputs.standards.grading,
          split: 'all',
          levelField,
          source: 'canonical',
          keyHashes,
          ...('groups' in audited ? { groups: audited.groups } : {}),
        }),
      ],
      'all',
    )
  groups.check()
  const conflicting = groups.conflictingIds()
  let records = inputs.records
  let quarantine: PublishedLine['quarantine']
  if (conflicting.size > 0) {
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
    const result = await timed(
      'quarantine',
      (value) => value.report.quarantined_records,
      () => quarantineConflicts({ records, dataset: inputs.dataset, levelField, conflicting }),
    )
    records = result.records
    quarantine = result.report
  }
  const split = await timed(
    'split',
    (value) => value.report.included_size,
    () => splitRecords(records, { splitType: 'random', ratios: [0.8, 0.1, 0.1], seed: inputs.seed, levelField }),
  )
  records = []
  // Nothing is published until the audits and the gate have passed: each publication's build waits for
  // this verdict and withholds its directory (removing the staging copy) when it is false.
  const verdict = settleable<boolean>()
  const awaitVerdict = async () => {
    if (!(await verdict.promise)) throw new PublicationWithheldError()
  }

  // The canonical file: serialised here, encoded and written by a worker while this thread goes on.
  const canonicalCount = split.records.length
  let canonicalSha256 = ''
  const canonicalStarted = performance.now()
  const canonicalPublished = publishDirectory({
    target: layout.canonical,
    async build(staging) {
      canonicalSha256 = await writeRecordArrayInWorker(join(staging, 'all.json'), split.records)
      const reports = { resolution_report: inputs.resolution, quarantine_report: quarantine, split_report: split.report }
      for (const [name, value] of Object.entries(reports)) {
        if (value !== undefined) writeFileSync(join(staging, `${name}.json`), `${JSON.stringify(value, null, 2)}\n`)
      }
      await awaitVerdict()
    },
  }).then(() => inputs.record('write canonical', secondsSince(canonicalStarted), canonicalCount))
  // Settled here, inspected below: a failure is rethrown there, never dropped.
  const tasks: Promise<PromiseSettledResult<void>[]>[] = [Promise.allSettled([canonicalPublished])]

  let exported: SftExportReport | undefined
  let audits: { rawAudit: BundleAuditReport; finalAudit: BundleAuditReport }
  try {
    const plan = planRecords({ records: split.records, task: inputs.loaded.task, source: 'canonical' })
    if (plan.issues.length > 0 || plan.gate.status === 'failed') {
      throw new InvalidInputError({
        code: carriedCode(plan.issues[0]?.code ?? 'label_gap'),
        message: `The split cannot be exported: ${plan.issues[0]?.message ?? JSON.stringify(plan.gate)}`,
        issues: plan.issues.slice(0, 100),
      })
    }
    // The SFT files: val and test built and written by a worker, train built here and written by another.
    const exportStarted = performance.now()
    const exportRows = plan.splits.train.length + plan.splits.val.length + plan.splits.test.length
    const exporting = publishDirectory({
      target: layout.sftRelease,
      async build(staging) {
        exported = await exportLegacySft({
          staging,
          dataset: inputs.dataset,
          plan,
          loaded: inputs.loaded,
          canonicalSha256: canonicalPublished.then(() => canonicalSha256),
          writers: inputs.writers,
        })
        await awaitVerdict()
      },
    }).then(() => inputs.record('sft export', secondsSince(exportStarted), exportRows))
    tasks.push(Promise.allSettled([exporting]))
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
  return { ...audits, quarantine, split: split.report, canonicalSha256, exported: exported as SftExportReport }
}
