/**
 * @module release/standards: `releaseops release standards build`: reads the standard workbooks (merged
 * cells resolve to their range's value), builds the JSON assets and writes them in the runbook's layout
 * under `--out-dir`, with the alignment report and a grading manifest. `--mapping` names the headers (and
 * the level map) where aliases cannot find them. A failed alignment writes only
 * the report and stops with every problem listed.
 */
import { readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { writeJsonReport } from '../../io/atomic-file.js'
import { readJsonFile } from '../../io/read-json-file.js'
import { sha256Hex } from '../../io/sha256.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import { parseStandardsMapping, type StandardsMapping } from '../contracts/standards-mapping.js'
import { type AlignmentReport, buildStandards } from './build-standards.js'
import { readStandardTable } from './read-standard-table.js'

export interface RunStandardsBuildOptions {
  dataset: string
  classification: string
  grading: string
  outDir: string
  idStrategy?: 'path' | 'code'
  sheet?: string
  /** The standards mapping JSON: headers by role, and the level map. */
  mapping?: string
  overwrite?: boolean
}

function loadStandardsMapping(path: string): StandardsMapping {
  return parseStandardsMapping(readJsonFile(path, { kind: 'standards mapping' }).value, path)
}

export const standardsLayout = (dataset: string) => ({
  registry: `assets/registries/${dataset}.registry.json`,
  corpus: `assets/corpora/${dataset}.corpus.json`,
  classification: `standards/${dataset}.classification.json`,
  grading: `standards/${dataset}.grading.json`,
  alignment: `standards/${dataset}.alignment.json`,
  gradingManifest: 'standards/grading-manifest.json',
})

/**
 * `--out-dir` is the release root (it gets `assets/` and `standards/`): a folder named `assets` or
 * `standards` is the common slip that would write `assets/assets/…`, refused before anything is read.
 */
function checkOutDir(outDir: string): void {
  const name = basename(resolve(outDir))
  if (name !== 'assets' && name !== 'standards') return
  throw new InvalidInputError({
    code: 'out_dir_inside_layout',
    path: outDir,
    message: `--out-dir is the release root: assets/… and standards/… are written under it, so ${outDir} would give ${join(outDir, name === 'assets' ? 'assets' : 'standards')}/…; pass its parent (${dirname(resolve(outDir))}).`,
    issues: [],
  })
}

export async function runStandardsBuild(options: RunStandardsBuildOptions): Promise<AlignmentReport> {
  const dataset = checkDatasetName(options.dataset)
  checkOutDir(options.outDir)
  const mapping = options.mapping ? loadStandardsMapping(options.mapping) : undefined
  const classification = await readStandardTable({
    path: options.classification,
    sheet: options.sheet,
    table: 'classification',
    mapping,
  })
  const grading = await readStandardTable({ path: options.grading, table: 'grading', mapping })
  const built = buildStandards({
    dataset,
    idStrategy: options.idStrategy ?? 'path',
    source: basename(options.classification),
    classification,
    grading,
    ...(mapping ? { mapping } : {}),
  })
  const layout = standardsLayout(dataset)
  const write = (relative: string, value: unknown) =>
    writeJsonReport({ path: join(options.outDir, relative), value, ...(options.overwrite ? { overwrite: true } : {}) })
  write(layout.alignment, built.report)
  if (built.report.status === 'failed') {
    throw new InvalidInputError({
      code: 'standards_misaligned',
      path: join(options.outDir, layout.alignment),
      message: `The standards of ${dataset} do not align (${built.report.errors.length} problem(s)); first: ${built.report.errors[0]}.`,
      issues: built.report.errors.slice(0, 500).map((message) => ({ code: 'standards_misaligned', path: dataset, message })),
    })
  }
  write(layout.registry, built.registry)
  write(layout.corpus, built.corpus)
  write(layout.classification, built.classification)
  write(layout.grading, built.grading)
  const gradingBytes = readFileSync(join(options.outDir, layout.grading))
  write(layout.gradingManifest, {
    datasets: { [dataset]: { path: basename(layout.grading), sha256: sha256Hex(gradingBytes) } },
  })
  return built.report
}
