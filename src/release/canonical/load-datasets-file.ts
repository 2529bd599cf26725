/** @module release/canonical: reads and validates the datasets config file. */

import { readJsonFile } from '../../io/read-json-file.js'
import { type DatasetsFile, parseDatasetsFile } from '../contracts/dataset-config.js'

export function loadDatasetsFile(path: string): DatasetsFile {
  return parseDatasetsFile(readJsonFile(path, { kind: 'dataset config' }).value, path)
}
