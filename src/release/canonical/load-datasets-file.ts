/** @module release/canonical: reads and validates the datasets config file. */
import { type DatasetsFile, parseDatasetsFile } from '../contracts/dataset-config.js'
import { readJsonFile } from '../io/read-json-file.js'

export function loadDatasetsFile(path: string): DatasetsFile {
  return parseDatasetsFile(readJsonFile(path, { kind: 'dataset config' }).value, path)
}
