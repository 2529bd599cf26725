/**
 * @module envs/grading: the demo's task assets as plain JSON values, the files `release demo-data` writes:
 * leaf registry, corpus, grading and classification standards, task config, dataset config and mapping.
 */
import type { JsonObject } from '../../../core/json/json-value.js'
import { nativeMetadataFields } from '../assets/task-config.js'
import { demoDatasetName, demoLeaves, demoLevels, demoMapping, placeholderLabel } from './demo-taxonomy.js'

const rawLevelNames: Record<string, string> = { L1: '一级', L2: '二级', L3: '三级', L4: '四级' }

export function demoRegistryJson(): JsonObject {
  return {
    categories: demoLeaves.map((leaf) => ({
      category_id: leaf.code,
      name: leaf.name,
      description: leaf.summary,
      path: [...leaf.path],
      code: leaf.code,
    })),
  }
}

export function demoCorpusJson(): JsonObject {
  return {
    dataset: demoDatasetName,
    source: 'synthetic demo taxonomy (fabricated, not a real standard)',
    id_strategy: 'code',
    categories: demoLeaves.map((leaf) => ({
      category_id: leaf.code,
      name: leaf.name,
      description: leaf.description,
      descriptions: [...leaf.descriptions],
      path: [...leaf.path],
      code: leaf.code,
      examples: [...leaf.examples],
    })),
  }
}

export function demoGradingJson(): JsonObject {
  return {
    levels: demoLevels.map(([level]) => level),
    descriptions: demoLevels.map(([, description]) => description),
    gt_field: 'data_level',
  }
}

export function demoTaskConfigJson(): JsonObject {
  return { task_name: 'data_classification', metadata_fields: [...nativeMetadataFields] }
}

export function demoDatasetsConfigJson(): JsonObject {
  return {
    datasets: {
      [demoDatasetName]: {
        leaf_level: 'level_4',
        id_strategy: 'code',
        path_fields: ['level_1', 'level_2', 'level_3', 'level_4'],
        placeholder_labels: [placeholderLabel],
        registry_derivation: 'standard',
      },
    },
    formal_datasets: [demoDatasetName],
  }
}

export function demoMappingJson(): JsonObject {
  return { ...demoMapping }
}

export function demoClassificationStandardJson(): JsonObject {
  return {
    dataset: demoDatasetName,
    id_strategy: 'code',
    standard_source: 'synthetic demo classification standard (fabricated)',
    entries: demoLeaves.map((leaf) => ({
      standard_entry_id: `std-${leaf.code}`,
      category_id: leaf.code,
      name: leaf.name,
      path: [...leaf.path],
      description: leaf.description,
      code: leaf.code,
      standard_data_level: leaf.level,
      raw_level: rawLevelNames[leaf.level] as string,
      content: leaf.examples.join('、'),
      source: 'demo',
      raw_fields: { 数据域: leaf.path[0], 业务域: leaf.path[1] },
    })),
    scoped_annotations: [],
  }
}
