/**
 * @module release/inputs: the dataset a command works on, when the runbook does not pass `--dataset`: it is
 * recorded beside the data (a canonical build's `resolution_report.json`, a release's `export_report.json`),
 * so asking for it again could only disagree.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { checkDatasetName } from '../contracts/dataset-name.js'

function recordedDataset(file: string): string | undefined {
  if (!existsSync(file)) return undefined
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { dataset?: unknown }
    return typeof value.dataset === 'string' ? value.dataset : undefined
  } catch {
    return undefined
  }
}

function agree(options: { given: string | undefined; found: string | undefined; source: string }): string {
  const { given, found, source } = options
  if (given !== undefined && found !== undefined && given !== found) {
    throw new InvalidInputError({
      code: 'dataset_mismatch',
      path: '--dataset',
      message: `--dataset ${given} does not match the dataset ${found} recorded in ${source}.`,
      issues: [{ code: 'dataset_mismatch', path: source, message: `records dataset ${found}` }],
    })
  }
  const name = given ?? found
  if (name === undefined) {
    throw new InvalidInputError({
      code: 'missing_option',
      path: '--dataset',
      message: `Give --dataset: ${source} does not record it.`,
      issues: [{ code: 'missing_option', path: '--dataset', message: 'required' }],
    })
  }
  return checkDatasetName(name)
}

/** `--dataset`, or the one the canonical build recorded beside `<canonical-dir>/<dataset>/all.json`. */
export function datasetOfCanonical(options: { canonical: string; dataset?: string | undefined }): string {
  const report = join(dirname(options.canonical), 'resolution_report.json')
  return agree({ given: options.dataset, found: recordedDataset(report), source: report })
}

/** `--dataset`, or the one a published release recorded in its `export_report.json`. */
export function datasetOfRelease(options: { datasetDir: string; dataset?: string | undefined }): string {
  const report = join(options.datasetDir, 'export_report.json')
  return agree({ given: options.dataset, found: recordedDataset(report), source: report })
}
