/** @module release/contracts: dataset names are configuration; they name directories, so they are checked. */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

const datasetNamePattern = /^[a-z][a-z0-9_-]{0,63}$/

export function checkDatasetName(name: string, path = '--dataset'): string {
  if (!datasetNamePattern.test(name)) {
    throw new InvalidInputError({
      code: 'invalid_dataset_name',
      path,
      message: `Dataset name "${name}" must match ${datasetNamePattern} (it names files and directories).`,
      issues: [{ code: 'invalid_dataset_name', path, message: `"${name}" is not a valid dataset name` }],
    })
  }
  return name
}

/** With `--formal`, only the config's allowlist may run; every formal command fails closed. */
export function checkFormalDataset(options: { names: readonly string[]; formal: readonly string[]; source: string }): void {
  const outside = options.names.filter((name) => !options.formal.includes(name))
  if (outside.length > 0) {
    throw new InvalidInputError({
      code: 'not_a_formal_dataset',
      path: options.source,
      message: `--formal allows only ${options.formal.join(', ') || '(none)'} (formal_datasets in ${options.source}); got ${outside.join(', ')}.`,
      issues: outside.map((name) => ({
        code: 'not_a_formal_dataset',
        path: `${options.source}:formal_datasets`,
        message: `"${name}" is not listed`,
      })),
    })
  }
}
