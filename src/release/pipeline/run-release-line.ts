/**
 * @module release/pipeline: the whole part-1 line in one process: preprocess → canonical build → audit →
 * (quarantine) → split → audit → legacy SFT export. Records pass between stages in memory (each stage's
 * output is still written, as the stage commands write it); the SFT files are written by worker threads
 * while this thread writes the canonical dataset and the audit reports.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import {
  auditPassed,
  auditPromptConflicts,
  type BundleAuditReport,
  bundleAuditReports,
  PromptKeyGroups,
} from '../audit/prompt-conflict-audit.js'
import { CanonicalBuilder } from '../canonical/build-canonical.js'
import { loadCanonicalInputs, throwBuildIssues } from '../canonical/run-canonical-build.js'
import { quarantineConflicts } from '../canonical/run-quarantine-conflicts.js'
import { splitRecords } from '../canonical/split-records.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import { parseClassificationStandard } from '../contracts/classification-standard.js'
import { writeFileAtomicAsync } from '../io/atomic-file.js'
import { SuffixTable } from '../io/extend-record-array.js'
import { isNonEmptyDirectory, outputExistsError, publishDirectory } from '../io/publish-directory.js'
import { readJsonFile } from '../io/read-json-file.js'
import { RecordArrayWriter } from '../io/record-array-file.js'
import { sha256File } from '../io/sha256.js'
import { loadColumnMapping, preprocessWorkbook } from '../preprocess/run-preprocess.js'
import { exportLegacySft, type SftExportReport } from '../sft/export-legacy-sft.js'
import { planLegacySft } from '../sft/legacy-sft-rows.js'
import { loadTaskFor, type TaskOptions } from '../sft/task-options.js'
import { BackgroundFileWriter, settleable } from '../workers/background-file-writer.js'
import { readXlsxRowsInWorker, type WorkerRowSource } from '../workers/read-xlsx-in-worker.js'
import { SftWriters } from '../workers/write-sft-in-workers.js'
import { releaseLineLayout } from './release-line-layout.js'
import { lineReport, writeAuditReport } from './release-line-report.js'

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
  // The workbook's reader starts first, so loading it and parsing overlap the input checks. (A missing or
  // non-.xlsx input is left to the preprocess step, which reports it after the other inputs are checked.)
  const readable = existsSync(options.input) && options.input.toLowerCase().endsWith('.xlsx')
  const source = readable ? readXlsxRowsInWorker({ path: options.input, eager: true }) : undefined
  try {
    return await runLine(options, layout, source)
  } finally {
    await source?.close()
  }
}

async function runLine(
  options: ReleaseLineOptions,
  layout: ReturnType<typeof releaseLineLayout>,
  source: WorkerRowSource | undefined,
): Promise<ReleaseLineResult> {
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
  let processedFile: BackgroundFileWriter | undefined
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
          // A worker encodes, hashes and writes the file while this thread builds canonical records. It keeps
          // the text: every canonical record is its processed record with keys added, so the same worker
          // writes the canonical file from the processed text and short suffixes.
          const file = new BackgroundFileWriter(temporary, { keep: true })
          processedFile = file
          try {
            const writer = new RecordArrayWriter(file)
            result = await preprocessWorkbook(
              {
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
              },
              source,
            )
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
  // The SFT writer threads start now: their start-up overlaps the audit and split below.
  const writers = SftWriters.start(loaded.assets)
  try {
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
      // The line owns these records (built above, nowhere else in use), so the split marks them in place.
      () =>
        splitRecords(
          records,
          { splitType: 'random', ratios: [0.8, 0.1, 0.1], seed: options.seed ?? 42, levelField },
          { inPlace: true },
        ),
    )
    built.records.length = 0
    records = []
    // The canonical file is written now, by the processed file's worker, while this thread audits, plans
    // and builds the SFT rows; it is published once every check below has passed.
    const table = new SuffixTable('schema_version')
    for (const record of split.records) table.add(record)
    const suffixes = table.suffixes()
    const canonicalCount = suffixes.ids.length
    const checks = settleable<void>()
    checks.promise.catch(() => {})
    const canonicalStarted = performance.now()
    let canonicalFileSha256 = ''
    const canonicalPublished = publishDirectory({
      target: layout.canonical,
      async build(staging) {
        const file = processedFile as BackgroundFileWriter
        canonicalFileSha256 = (await file.writeExtended(join(staging, 'all.json'), suffixes)).sha256
        const reports = {
          resolution_report: { ...built.report, inputs: { processed_sha256: processed.sha256, ...inputs.hashes } },
          quarantine_report: quarantine,
          split_report: split.report,
        }
        for (const [name, value] of Object.entries(reports)) {
          if (value !== undefined) writeFileSync(join(staging, `${name}.json`), `${JSON.stringify(value, null, 2)}\n`)
        }
        await checks.promise
      },
    }).then(() => {
      const seconds = (performance.now() - canonicalStarted) / 1000
      timings.push({ stage: 'write canonical', seconds, rows: canonicalCount })
      options.onStage?.('write canonical', seconds, canonicalCount)
    })
    let finalAudit: BundleAuditReport
    let plan: ReturnType<typeof planLegacySft>
    try {
      // Quarantine took out every record of every conflicting group and the split changes no target, so the
      // split records group exactly as the raw grouping without its conflicting groups: no second pass.
      finalAudit = await timed(
        'audit (after split)',
        (value) => value.records_audited,
        () => {
          const groups = rawGroups.withoutConflicts()
          if (groups.audited !== split.report.included_size)
            throw new Error(
              `the split holds ${split.report.included_size} resolved records, the audit grouping ${groups.audited}`,
            )
          return audit(split.records, groups)
        },
      )
      if (!auditPassed(finalAudit))
        throw new InvalidInputError({
          code: 'prompt_conflicts',
          path: layout.audit,
          message: 'The prompt audit still fails after quarantine.',
          issues: [],
        })
      plan = planLegacySft({ records: split.records, task: loaded.task, source: 'canonical' })
      if (plan.issues.length > 0 || plan.gate.status === 'failed') {
        throw new InvalidInputError({
          code: plan.issues[0]?.code ?? 'label_gap',
          message: `The split cannot be exported: ${plan.issues[0]?.message ?? JSON.stringify(plan.gate)}`,
          issues: plan.issues.slice(0, 100),
        })
      }
      checks.resolve()
    } catch (error) {
      checks.reject(error as Error)
      await canonicalPublished.catch(() => {})
      throw error
    }
    writeAuditReport(layout.rawAudit, rawAudit)
    writeAuditReport(layout.audit, finalAudit)
    let exported: SftExportReport | undefined
    const started = performance.now()
    const exporting = publishDirectory({
      target: layout.sftRelease,
      async build(staging) {
        const canonicalSha256 = canonicalPublished.then(() => canonicalFileSha256)
        exported = await exportLegacySft({ staging, dataset: options.dataset, plan, loaded, canonicalSha256, writers })
      },
    })
    await Promise.all([exporting, canonicalPublished])
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
  } finally {
    await Promise.all([writers.close(), processedFile?.abandon()])
  }
}
