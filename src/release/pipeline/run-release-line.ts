/**
 * @module release/pipeline: the whole part-1 line in one process: preprocess → canonical build → audit →
 * (quarantine) → split → audit → legacy SFT export. Records pass between stages in memory (each stage's
 * output is still written, as the stage commands write it); the SFT files are written by worker threads
 * while this thread writes the canonical dataset and the audit reports.
 */
import { writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import {
  auditPassed,
  auditPromptConflicts,
  type BundleAuditReport,
  bundleAuditReports,
  PromptKeyGroups,
} from '../audit/prompt-conflict-audit.js'
import { stableJson } from '../audit/run-prompt-audit.js'
import { CanonicalBuilder } from '../canonical/build-canonical.js'
import { loadCanonicalInputs, throwBuildIssues } from '../canonical/run-canonical-build.js'
import { quarantineConflicts } from '../canonical/run-quarantine-conflicts.js'
import { splitRecords } from '../canonical/split-records.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import { parseClassificationStandard } from '../contracts/classification-standard.js'
import { writeFileAtomic, writeFileAtomicAsync } from '../io/atomic-file.js'
import { isNonEmptyDirectory, outputExistsError, publishDirectory } from '../io/publish-directory.js'
import { readJsonFile } from '../io/read-json-file.js'
import { RecordArrayWriter } from '../io/record-array-file.js'
import { sha256File, sha256Hex } from '../io/sha256.js'
import { loadColumnMapping, preprocessWorkbook } from '../preprocess/run-preprocess.js'
import { exportLegacySft, type SftExportReport } from '../sft/export-legacy-sft.js'
import { planLegacySft } from '../sft/legacy-sft-rows.js'
import { loadTaskFor, type TaskOptions } from '../sft/task-options.js'
import { BackgroundFileWriter, writeRecordArrayInBackground } from '../workers/background-file-writer.js'
import { releaseLineLayout } from './release-line-layout.js'

export interface ReleaseLineOptions extends TaskOptions {
  input: string
  mapping: string
  configFile: string
  classificationStandard: string
  gradingStandard: string
  out: string
  seed?: number
  stripTrailingCodes?: boolean
  formal?: boolean
  /** When the audit finds conflicts: quarantine them and go on (default), or stop. */
  quarantine?: boolean
  onStage?: (stage: string, seconds: number, rows: number) => void
}

export interface ReleaseLineResult {
  report: Record<string, unknown>
  timings: { stage: string; seconds: number; rows: number }[]
}

export async function runReleaseLine(options: ReleaseLineOptions): Promise<ReleaseLineResult> {
  const layout = releaseLineLayout(options.out, options.dataset)
  if (isNonEmptyDirectory(layout.run)) throw outputExistsError(layout.run)
  const timings: ReleaseLineResult['timings'] = []
  const timed = async <T>(stage: string, rows: (value: T) => number, run: () => T | Promise<T>): Promise<T> => {
    const started = performance.now()
    const value = await run()
    const seconds = (performance.now() - started) / 1000
    timings.push({ stage, seconds, rows: rows(value) })
    options.onStage?.(stage, seconds, rows(value))
    return value
  }
  // Every input is checked before the first stage runs.
  const mapping = loadColumnMapping(options.mapping)
  const inputs = loadCanonicalInputs({
    dataset: options.dataset,
    configFile: options.configFile,
    registry: options.registry,
    corpus: options.corpus,
    ...(options.formal ? { formal: true } : {}),
  })
  const loaded = loadTaskFor(options)
  parseClassificationStandard(
    readJsonFile(options.classificationStandard, { kind: 'classification standard' }).value,
    options.classificationStandard,
  )
  const standards = { classification: sha256File(options.classificationStandard), grading: sha256File(options.gradingStandard) }
  const levelField = loaded.task.grading.gt_field

  // Preprocess and canonical build run record by record while the worker thread parses the workbook:
  // each processed record is appended to its file and resolved as soon as it exists.
  const builder = new CanonicalBuilder({
    dataset: options.dataset,
    config: inputs.config,
    registry: inputs.registry,
    source: basename(layout.processed),
    codeByLeaf: inputs.codeByLeaf,
    trusted: true,
  })
  // The raw audit's grouping is built record by record too.
  const rawGroups = new PromptKeyGroups({ split: 'all', levelField, source: 'canonical' })
  const processed = await timed(
    'preprocess + canonical build',
    (value) => value.report.data_rows,
    async () => {
      let result: Awaited<ReturnType<typeof preprocessWorkbook>> | undefined
      let sha256 = ''
      await writeFileAtomicAsync({
        path: layout.processed,
        async write(temporary) {
          // A worker encodes, hashes and writes the file while this thread builds canonical records.
          const file = new BackgroundFileWriter(temporary)
          try {
            const writer = new RecordArrayWriter(file)
            result = await preprocessWorkbook({
              input: options.input,
              mapping,
              dataset: options.dataset,
              ...(options.stripTrailingCodes ? { stripTrailingCodes: true } : {}),
              onRecord(record) {
                writer.add(record)
                const position = builder.records.length
                builder.add(record)
                const made = builder.records[position]
                if (made) rawGroups.add(made, position)
              },
            })
            writer.end()
          } catch (error) {
            await file.abandon()
            throw error
          }
          sha256 = await file.close()
        },
      })
      throwBuildIssues(layout.processed, builder.issues)
      return { ...(result as NonNullable<typeof result>), sha256 }
    },
  )
  const built = { records: builder.records, report: builder.report() }
  const keyHashes = new Map<string, string>()
  const audit = (records: readonly CanonicalRecord[], groups?: PromptKeyGroups): BundleAuditReport =>
    bundleAuditReports(
      [
        auditPromptConflicts({
          dataset: options.dataset,
          records,
          classificationSha256: standards.classification,
          gradingSha256: standards.grading,
          split: 'all',
          levelField,
          source: 'canonical',
          keyHashes,
          ...(groups ? { groups } : {}),
        }),
      ],
      'all',
    )
  const rawAudit = await timed(
    'audit (before split)',
    (value) => value.records_audited,
    () => audit(built.records, rawGroups),
  )
  let records = built.records
  let quarantine: ReturnType<typeof quarantineConflicts>['report'] | undefined
  if (!auditPassed(rawAudit)) {
    if (options.quarantine === false) {
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
      () => quarantineConflicts({ records, dataset: options.dataset, levelField, conflicting: rawGroups.conflictingIds() }),
    )
    records = result.records
    quarantine = result.report
  }
  const split = await timed(
    'split',
    (value) => value.report.included_size,
    () => splitRecords(records, { splitType: 'random', ratios: [0.8, 0.1, 0.1], seed: options.seed ?? 42, levelField }),
  )
  built.records.length = 0
  records = []
  const finalAudit = await timed(
    'audit (after split)',
    (value) => value.records_audited,
    () => audit(split.records),
  )
  if (!auditPassed(finalAudit))
    throw new InvalidInputError({
      code: 'prompt_conflicts',
      path: layout.audit,
      message: 'The prompt audit still fails after quarantine.',
      issues: [],
    })
  const plan = planLegacySft({ records: split.records, task: loaded.task, source: 'canonical' })
  if (plan.issues.length > 0 || plan.gate.status === 'failed') {
    throw new InvalidInputError({
      code: plan.issues[0]?.code ?? 'label_gap',
      message: `The split cannot be exported: ${plan.issues[0]?.message ?? JSON.stringify(plan.gate)}`,
      issues: plan.issues.slice(0, 100),
    })
  }
  let exported: SftExportReport | undefined
  let canonicalWritten: (sha256: string) => void = () => {}
  let canonicalFailed: (error: unknown) => void = () => {}
  const canonicalSha256 = new Promise<string>((resolve, reject) => {
    canonicalWritten = resolve
    canonicalFailed = reject
  })
  const started = performance.now()
  let canonicalFileSha256 = ''
  const exporting = publishDirectory({
    target: layout.sftRelease,
    async build(staging) {
      exported = await exportLegacySft({ staging, dataset: options.dataset, plan, loaded, canonicalSha256 })
    },
  })
  // While the workers write Parquet, this thread writes the canonical dataset and the audit reports,
  // yielding often enough to keep the train writer fed.
  try {
    await timed(
      'write canonical + audits',
      (value: number) => value,
      async () => {
        await publishDirectory({
          target: layout.canonical,
          async build(staging) {
            canonicalFileSha256 = (await writeRecordArrayInBackground(join(staging, 'all.json'), split.records)).sha256
            const reports = {
              resolution_report: {
                ...built.report,
                inputs: { processed_sha256: processed.sha256, ...inputs.hashes },
              },
              quarantine_report: quarantine,
              split_report: split.report,
            }
            for (const [name, value] of Object.entries(reports)) {
              if (value !== undefined) writeFileSync(join(staging, `${name}.json`), `${JSON.stringify(value, null, 2)}\n`)
            }
          },
        })
        writeAuditReport(layout.rawAudit, rawAudit)
        writeAuditReport(layout.audit, finalAudit)
        return split.records.length
      },
    )
    canonicalWritten(canonicalFileSha256)
  } catch (error) {
    canonicalFailed(error)
    await exporting.catch(() => {})
    throw error
  }
  await exporting
  const exportSeconds = (performance.now() - started) / 1000
  const exportRows = plan.splits.train.length + plan.splits.val.length + plan.splits.test.length
  timings.push({ stage: 'sft export', seconds: exportSeconds, rows: exportRows })
  options.onStage?.('sft export', exportSeconds, exportRows)
  const report = lineReport({
    options,
    layout,
    processed: { ...processed.report, sha256: processed.sha256 },
    canonicalSha256: canonicalFileSha256,
    built: built.report,
    rawAudit,
    finalAudit,
    quarantine,
    split: split.report,
    exported: exported as SftExportReport,
  })
  return { report, timings }
}

function writeAuditReport(path: string, report: unknown): void {
  writeFileAtomic({ path, write: (temporary) => writeFileSync(temporary, `${stableJson(report)}\n`) })
}

function lineReport(parts: {
  options: ReleaseLineOptions
  layout: ReturnType<typeof releaseLineLayout>
  processed: { data_rows: number; records: number; exact_duplicates: { count: number }; sha256: string }
  canonicalSha256: string
  built: { status_counts: Record<string, number> }
  rawAudit: BundleAuditReport
  finalAudit: BundleAuditReport
  quarantine: { quarantined_records: number } | undefined
  split: { sizes: Record<string, number>; seed: number }
  exported: SftExportReport
}): Record<string, unknown> {
  const { layout } = parts
  const artifact = (path: string) => relative(parts.options.out, path)
  return {
    format: 'release-line-report-v1',
    dataset: parts.options.dataset,
    input: { file: basename(parts.options.input), sha256: sha256File(parts.options.input) },
    stages: {
      preprocess: {
        rows: parts.processed.data_rows,
        records: parts.processed.records,
        exact_duplicates: parts.processed.exact_duplicates.count,
        output: artifact(layout.processed),
      },
      canonical_build: { status_counts: parts.built.status_counts, output: artifact(layout.canonical) },
      audit_before_split: {
        status: parts.rawAudit.status,
        conflict_keys: parts.rawAudit.conflict_keys,
        report: artifact(layout.rawAudit),
      },
      quarantine: { quarantined_records: parts.quarantine?.quarantined_records ?? 0 },
      split: { seed: parts.split.seed, sizes: parts.split.sizes },
      audit: { status: parts.finalAudit.status, conflict_keys: parts.finalAudit.conflict_keys, report: artifact(layout.audit) },
      sft_export: {
        release: artifact(layout.sftRelease),
        splits: parts.exported.splits,
        label_gap_gate: parts.exported.label_gap_gate.status,
      },
    },
    sha256: {
      processed: parts.processed.sha256,
      canonical: parts.canonicalSha256,
      audit: sha256Hex(stableJson(parts.finalAudit)),
    },
  }
}
