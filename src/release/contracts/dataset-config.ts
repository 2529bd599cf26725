/**
 * @module release/contracts: how one dataset's labels resolve to canonical targets (leaf level, id strategy,
 * path and identity fields, placeholder labels), and which datasets a formal release may contain.
 */
import { z } from 'zod'
import { parseAsset } from '../../envs/grading/assets/parse-asset.js'

const pathFieldNames = ['level_1', 'level_2', 'level_3', 'level_4'] as const

const nonEmpty = z
  .string()
  .transform((value) => value.trim())
  .pipe(z.string().min(1))
const uniqueStrings = (what: string) =>
  z.array(nonEmpty).refine((values) => new Set(values).size === values.length, `${what} must be unique`)

export const datasetConfigSchema = z
  .strictObject({
    dataset: nonEmpty.optional(),
    leaf_level: nonEmpty.default('level_4'),
    id_strategy: z.enum(['code', 'path']).default('path'),
    path_fields: uniqueStrings('path_fields')
      .pipe(z.array(z.enum(pathFieldNames)).min(1))
      .default([...pathFieldNames]),
    identity_fields: uniqueStrings('identity_fields').default([]),
    placeholder_labels: z.array(nonEmpty).default([]),
    registry_source: nonEmpty.nullish(),
    projection_excluded_category_ids: uniqueStrings('projection_excluded_category_ids').default([]),
    registry_derivation: z.enum(['standard', 'shared-standard', 'dataset-universe']).default('standard'),
  })
  .superRefine((config, context) => {
    if (!(config.path_fields as string[]).includes(config.leaf_level)) {
      context.addIssue({
        code: 'custom',
        path: ['leaf_level'],
        message: `leaf_level must be one of path_fields (${config.path_fields.join(', ')})`,
      })
    }
    for (const [index, field] of config.identity_fields.entries()) {
      if (!(config.path_fields as string[]).includes(field)) {
        context.addIssue({ code: 'custom', path: ['identity_fields', index], message: `"${field}" is not one of path_fields` })
      }
    }
    if (config.identity_fields.length > 0 && !config.identity_fields.includes(config.leaf_level)) {
      context.addIssue({ code: 'custom', path: ['identity_fields'], message: 'leaf_level must be one of identity_fields' })
    }
    // The derivation decides which registry the build reads (decision 0039): one it cannot honour is refused.
    if (config.registry_derivation === 'dataset-universe') {
      context.addIssue({
        code: 'custom',
        path: ['registry_derivation'],
        message:
          'registry_derivation "dataset-universe" (a registry derived from the dataset\'s own labels) is not supported; build the registry with `release standards build` and use "standard"',
      })
    }
    if (config.registry_derivation === 'standard' && config.registry_source) {
      context.addIssue({
        code: 'custom',
        path: ['registry_source'],
        message: 'registry_source reads another dataset\'s registry: set registry_derivation to "shared-standard"',
      })
    }
    if (config.registry_derivation === 'shared-standard' && !config.registry_source) {
      context.addIssue({
        code: 'custom',
        path: ['registry_source'],
        message: 'registry_derivation "shared-standard" needs registry_source',
      })
    }
  })

export type DatasetConfig = z.output<typeof datasetConfigSchema> & { dataset: string }

const datasetsFileSchema = z
  .strictObject({
    datasets: z.record(z.string(), datasetConfigSchema),
    formal_datasets: z.array(nonEmpty).default([]),
  })
  .superRefine((file, context) => {
    for (const [name, config] of Object.entries(file.datasets)) {
      if (config.registry_source === name) {
        context.addIssue({
          code: 'custom',
          path: ['datasets', name, 'registry_source'],
          message: 'registry_source must not name the dataset itself',
        })
      }
    }
    if (Object.keys(file.datasets).length === 0)
      context.addIssue({ code: 'custom', path: ['datasets'], message: 'no dataset configured' })
  })

export interface DatasetsFile {
  datasets: ReadonlyMap<string, DatasetConfig>
  formalDatasets: readonly string[]
}

export function parseDatasetsFile(value: unknown, source: string): DatasetsFile {
  const parsed = parseAsset(datasetsFileSchema, value, { kind: 'dataset config', source, code: 'invalid_dataset_config' })
  const datasets = new Map<string, DatasetConfig>()
  for (const [name, config] of Object.entries(parsed.datasets)) {
    datasets.set(name, { ...config, dataset: config.dataset ?? name })
  }
  return { datasets, formalDatasets: parsed.formal_datasets }
}
