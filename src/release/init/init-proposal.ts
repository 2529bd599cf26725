/**
 * @module release/init: what `release init` inferred → the files it proposes (column mapping, standards
 * mapping, datasets entry, task config) and its report: what was inferred, what the user must confirm, and
 * the problems the line would refuse later (pure). Nothing is decided silently: each inference that could
 * be wrong is a confirmation item saying where to change it.
 */
import type { StandardField } from '../contracts/column-mapping.js'
import type { ClassificationColumns, GradingColumns } from '../standards/standard-columns.js'
import type { CodeStyle } from './infer-codes.js'
import type { LabelInference } from './infer-labels.js'
import type { CatalogueLevelStyle, LevelInference } from './infer-levels.js'

export interface InitFindings {
  dataset: string
  idStrategy: 'path' | 'code'
  catalogue: {
    sheet: string
    header_row: number
    mapping: [string, StandardField][]
    unmapped: string[]
    repeated: string[]
    rows: number
  }
  standards: {
    classification_header_row: number
    grading_header_row: number
    columns: { classification: ClassificationColumns; grading: GradingColumns }
    unused: { table: string; header: string; looks_like: string }[]
    errors: string[]
    /** Used columns not found: proposed as absent (null), to confirm. */
    missing: string[]
    depth: number
  }
  levels: LevelInference
  catalogue_levels: CatalogueLevelStyle
  codes: CodeStyle
  labels: LabelInference
  languages: { headers: string[]; labels: string[]; bilingual_headers: boolean }
}

export interface ConfirmItem {
  item: string
  inferred: string
  /** Where to change it if it is wrong. */
  change: string
}

const nativeFields = ['field_name', 'table_name', 'field_description', 'table_description'] as const

function columnList(columns: Record<string, string | string[] | null>): string {
  return Object.entries(columns)
    .map(
      ([role, header]) =>
        `${role.replace('_', ' ')}: ${header === null ? 'none' : Array.isArray(header) ? header.join(', ') : header}`,
    )
    .join('; ')
}

function confirmItems(findings: InitFindings, files: { mapping: string; standards: string; datasets: string }): ConfirmItem[] {
  const { catalogue, standards, levels, codes, labels } = findings
  const items: ConfirmItem[] = [
    {
      item: 'catalogue columns',
      inferred: `header row ${catalogue.header_row} of sheet "${catalogue.sheet}": ${catalogue.mapping.map(([header, field]) => `${header} → ${field}`).join(', ')}${catalogue.unmapped.length > 0 ? `; not mapped: ${catalogue.unmapped.join(', ')}` : ''}`,
      change: `${files.mapping} (a column to keep: map it to "metadata.<name>")`,
    },
    {
      item: 'standards columns',
      inferred: `classification (header row ${standards.classification_header_row}) ${columnList({ ...standards.columns.classification })}; grading (header row ${standards.grading_header_row}) ${columnList({ ...standards.columns.grading })}`,
      change: files.standards,
    },
    {
      item: 'levels',
      inferred:
        levels.style === 'named'
          ? `named levels, mapped by ${levels.order}: ${Object.entries(levels.level_map)
              .map(([name, code]) => `${name} → ${code}`)
              .join(', ')}`
          : `numbered levels ${levels.levels.join(', ')}${
              Object.keys(levels.level_map).length > 0
                ? `, named by the sheet's name column: ${Object.entries(levels.level_map)
                    .map(([name, code]) => `${name} → ${code}`)
                    .join(', ')}`
                : ''
            }`,
      change: `${files.standards} ("level_map": lowest level first)`,
    },
    {
      item: 'category ids',
      inferred:
        findings.idStrategy === 'code'
          ? `the standard's codes (${codes.column}, ${codes.style}${codes.leading_zeros ? ', leading zeros kept as text' : ''})`
          : `paths of the standard's level names${codes.usable_as_ids ? `; its codes (${codes.column}, ${codes.style}) are unique, so --id-strategy code would also work` : ''}`,
      change: `${files.datasets} (id_strategy) with the same --id-strategy for release standards build`,
    },
    {
      item: 'label depth',
      inferred: `leaf level ${labels.leaf_level}, path fields ${labels.path_fields.join(', ')} (the standard has ${standards.depth} levels)`,
      change: `${files.datasets} (leaf_level, path_fields)`,
    },
  ]
  items.push({
    item: 'formal dataset',
    inferred: `${findings.dataset} is listed in formal_datasets, so --formal commands accept it`,
    change: `${files.datasets} (formal_datasets)`,
  })
  if (standards.missing.length > 0)
    items.push({
      item: 'standards columns not found',
      inferred: `${standards.missing.join(', ')}: proposed as absent (null); the build then reads nothing from them`,
      change: `${files.standards} (name the header if the standard has the column)`,
    })
  if (labels.placeholder_labels.length > 0)
    items.push({
      item: 'placeholder labels',
      inferred: `${labels.placeholder_labels.join(', ')}: fields not classified yet, counted and never trained on`,
      change: `${files.datasets} (placeholder_labels)`,
    })
  return items
}

function problemsOf(findings: InitFindings): { code: string; message: string }[] {
  const problems: { code: string; message: string }[] = []
  for (const message of findings.standards.errors) problems.push({ code: 'standards_columns', message })
  if (findings.levels.style === 'mixed' || findings.levels.style === 'none')
    problems.push({ code: 'grading_levels', message: 'the grading sheet mixes numbered and named levels, or names none' })
  for (const { text, problem } of findings.catalogue_levels.unreadable)
    problems.push({ code: 'unknown_level', message: `catalogue level "${text}": ${problem}` })
  for (const { label, rows } of findings.labels.unknown_labels.slice(0, 20))
    problems.push({
      code: 'unknown_label',
      message: `catalogue label "${label}" (${rows} row(s)) names no leaf of the classification standard`,
    })
  if (findings.idStrategy === 'code' && !findings.codes.usable_as_ids)
    problems.push({
      code: 'codes_not_ids',
      message: `code ids need every leaf coded once: ${findings.codes.missing} leaf(s) without a code, repeated: ${findings.codes.repeated.join(', ') || 'none'}`,
    })
  if (findings.labels.path_fields.length > findings.standards.depth)
    problems.push({
      code: 'label_depth',
      message: `the catalogue has ${findings.labels.path_fields.length} category columns, the standard ${findings.standards.depth} levels`,
    })
  if (!findings.catalogue.mapping.some(([, field]) => field === 'data_level'))
    problems.push({
      code: 'no_level_column',
      message: 'no catalogue column holds the data level (Level, Sensitivity level, 分级, …)',
    })
  if (
    findings.catalogue.repeated.length > 0 &&
    findings.catalogue.unmapped.length === 0 &&
    findings.catalogue.mapping.length === 0
  )
    problems.push({ code: 'repeated_headers', message: `repeated headers: ${findings.catalogue.repeated.join(', ')}` })
  return problems
}

/** The proposed files and the report's body. */
export function initProposal(findings: InitFindings, files: { mapping: string; standards: string; datasets: string }) {
  const { standards, levels, labels } = findings
  const mapped = new Set(findings.catalogue.mapping.map(([, field]) => field))
  const levelMap = Object.keys(levels.level_map).length > 0 && levels.style === 'named' ? { level_map: levels.level_map } : {}
  const { levels: levelColumns, ...classification } = standards.columns.classification
  const { level: gradingLevel, ...grading } = standards.columns.grading
  return {
    mapping: Object.fromEntries(findings.catalogue.mapping),
    standardsMapping: {
      classification: { ...(levelColumns.length > 0 ? { levels: levelColumns } : {}), ...classification },
      grading: { ...(gradingLevel ? { level: gradingLevel } : {}), ...grading },
      ...levelMap,
    },
    datasetEntry: {
      leaf_level: labels.leaf_level ?? 'level_4',
      id_strategy: findings.idStrategy,
      path_fields: labels.path_fields,
      placeholder_labels: labels.placeholder_labels,
    },
    taskConfig: { task_name: 'data_classification', metadata_fields: nativeFields.filter((field) => mapped.has(field)) },
    confirm: confirmItems(findings, files),
    problems: problemsOf(findings),
  }
}
