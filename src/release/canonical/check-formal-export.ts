/**
 * @module release/canonical: the `--formal` rule every export shares: it needs `--config-file`, and only the
 * datasets that file lists as formal may be exported.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { checkFormalDataset } from '../contracts/dataset-name.js'
import { loadDatasetsFile } from './load-datasets-file.js'

export function checkFormalExport(options: { formal?: boolean; configFile?: string; dataset: string }): void {
  if (!options.formal) return
  if (!options.configFile)
    throw new InvalidInputError({
      code: 'invalid_option',
      path: '--config-file',
      message: '--formal needs --config-file.',
      issues: [],
    })
  checkFormalDataset({
    names: [options.dataset],
    formal: loadDatasetsFile(options.configFile).formalDatasets,
    source: options.configFile,
  })
}
