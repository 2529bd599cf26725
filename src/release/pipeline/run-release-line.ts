/**
 * @module release/pipeline: the whole part-1 line in one process: preprocess → canonical build → audit →
 * (quarantine) → split → audit → legacy SFT export. Records pass between stages in memory (each stage's
 * output is still written, as the stage commands write it). The workbook is parsed by a worker while this
 * thread preprocesses, builds and groups each record as it comes; the files are written by workers (see
 * `publishReleaseLine` for the second half).
 */
import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import { writeFileAtomicAsync } from '../../io/atomic-file.js'
import { isNonEmptyDirectory, outputExistsError } from '../../io/publish-directory.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { RecordArrayWriter } from '../../io/record-array-file.js'
import { sha256File } from '../../io/sha256.js'
import { PromptKeyGroups } from '../audit/prompt-key-groups.js'
import { CanonicalBuilder } from '../canonical/build-canonical.js'
import { loadCanonicalInputs, throwBuildIssues } from '../canonical/run-canonical-build.js'
import { checkLostLabels } from '../canonical/unresolved-labels.js'
import { parseClassificationStandard } from '../contracts/classification-standard.js'
import type { ProcessedRecord } from '../contracts/processed-record.js'
import { loadTaskFor } from '../planning/task-options.js'
import { loadColumnMapping, preprocessWorkbook } from '../preprocess/run-preprocess.js'
import { BackgroundFileWriter } from '../workers/background-file-writer.js'
import { readXlsxRowsInWorker, type WorkerRowSource } from '../workers/read-xlsx-in-worker.js'
import { SftWriters } from '../workers/write-sft-in-workers.js'
import { detectInputFormat } from '../xlsx/detect-input-format.js'
import { publishReleaseLine } from './publish-release-line.js'
import { type ReleaseLineLayout, releaseLineLayout } from './release-line-layout.js'
import type { ReleaseLineOptions, ReleaseLineResult } from './release-line-options.js'
import { lineReport } from './release-line-report.js'
import { type StageRecorder, stageTimer } from './stage-timer.js'

/** The line's options and result types live in `release-line-options.ts`; re-exported for the package index. */
export type { ReleaseLineOptions, ReleaseLineResult } from './release-line-options.js'

export async function runReleaseLine(options: ReleaseLineOptions): Promise<ReleaseLineResult> {
  const layout = releaseLineLayout(options.out, options.dataset)
  if (isNonEmptyDirectory(layout.run)) throw outputExistsError(layout.run)
  // The workbook's reader starts first, so loading it and parsing overlap the input checks. (A missing or
  // non-workbook input is left to the preprocess step, which reports it after the other inputs are checked.)
  const readable = existsSync(options.input) && isWorkbook(options.input)
  const source = readable ? readXlsxRowsInWorker({ path: options.input, eager: true }) : undefined
  try {
    return await runLine(options, layout, source)
  } finally {
    await source?.close()
  }
}

function isWorkbook(path: string): boolean {
  try {
    return detectInputFormat(path) === 'xlsx'
  } catch {
    return false
  }
}

/** Every input of the line, loaded and checked before the first stage runs. */
function loadLineInputs(options: ReleaseLineOptions) {
  const mapping = loadColumnMapping(options.mapping)
  const canonical = loadCanonicalInputs({
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
  return { mapping, canonical, loaded, standards }
}

type LineInputs = ReturnType<typeof loadLineInputs>

/**
 * Where each processed record goes as soon as it exists: appended to the processed file, built into a
 * canonical record, and (when it was built) grouped for the raw audit at its position.
 */
class LineRecordSink {
  private built = 0
  constructor(
    private readonly file: RecordArrayWriter,
    private readonly builder: CanonicalBuilder,
    private readonly groups: PromptKeyGroups,
  ) {}

  add(record: ProcessedRecord): void {
    this.file.add(record)
    const made = this.builder.add(record)
    if (made) this.groups.add(made, this.built++)
  }
}

/**
 * Preprocess and canonical build, record by record while the worker thread parses the workbook; a worker
 * encodes, hashes and writes the processed file meanwhile.
 */
async function preprocessAndBuild(
  options: ReleaseLineOptions,
  layout: ReleaseLineLayout,
  inputs: LineInputs,
  source: WorkerRowSource | undefined,
) {
  const builder = new CanonicalBuilder({
    dataset: options.dataset,
    config: inputs.canonical.config,
    registry: inputs.canonical.registry,
    source: basename(layout.processed),
    codeByLeaf: inputs.canonical.codeByLeaf,
    trusted: true,
    // Each processed record is written to its file before it is built, and used no more after.
    adopt: true,
  })
  const groups = new PromptKeyGroups({ split: 'all', levelField: inputs.loaded.task.grading.gt_field, source: 'canonical' })
  let preprocessed: Awaited<ReturnType<typeof preprocessWorkbook>> | undefined
  let sha256 = ''
  await writeFileAtomicAsync({
    path: layout.processed,
    async write(temporary) {
      const file = new BackgroundFileWriter(temporary)
      try {
        const writer = new RecordArrayWriter(file)
        const sink = new LineRecordSink(writer, builder, groups)
        preprocessed = await preprocessWorkbook(
          {
            input: options.input,
            mapping: inputs.mapping,
            dataset: options.dataset,
            ...(options.stripTrailingCodes === false ? { stripTrailingCodes: false } : {}),
            ...(options.encoding ? { encoding: options.encoding } : {}),
            ...(options.delimiter ? { delimiter: options.delimiter } : {}),
            onRecord: (record) => sink.add(record),
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
  return { report: (preprocessed as NonNullable<typeof preprocessed>).report, sha256, builder, groups }
}

async function runLine(
  options: ReleaseLineOptions,
  layout: ReleaseLineLayout,
  source: WorkerRowSource | undefined,
): Promise<ReleaseLineResult> {
  const timings: ReleaseLineResult['timings'] = []
  const record: StageRecorder = (stage, seconds, rows) => {
    timings.push({ stage, seconds, rows })
    options.onStage?.(stage, seconds, rows)
  }
  const inputs = loadLineInputs(options)
  const processed = await stageTimer(record)(
    'preprocess + canonical build',
    (value) => value.report.data_rows,
    () => preprocessAndBuild(options, layout, inputs, source),
  )
  const resolution = processed.builder.report()
  checkLostLabels({
    dataset: options.dataset,
    accounting: resolution.labels,
    allow: options.allowUnresolved ?? false,
    examples: resolution.unresolved.records,
  })
  // The SFT writer threads start now: their start-up overlaps the split and the audits.
  const writers = SftWriters.start(inputs.loaded.assets)
  try {
    const published = await publishReleaseLine({
      dataset: options.dataset,
      seed: options.seed ?? 42,
      quarantine: options.quarantine ?? true,
      layout,
      records: processed.builder.records,
      groups: processed.groups,
      resolution: { ...resolution, inputs: { processed_sha256: processed.sha256, ...inputs.canonical.hashes } },
      writers,
      loaded: inputs.loaded,
      standards: inputs.standards,
      record,
    })
    const report = lineReport({
      options,
      layout,
      processed: { ...processed.report, sha256: processed.sha256 },
      canonicalSha256: published.canonicalSha256,
      built: resolution,
      rawAudit: published.rawAudit,
      finalAudit: published.finalAudit,
      quarantine: published.quarantine,
      split: published.split,
      exported: published.exported,
    })
    return { report, timings }
  } finally {
    await writers.close()
  }
}
