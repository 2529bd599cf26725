/**
 * @module release/canonical: processed records → canonical schema-v2 records plus a resolution report
 * (pure). Every record is validated; a stale id, a duplicate id or a label the config forbids fails the
 * build with the record's file, spreadsheet row and field named.
 */
import type { InputIssue } from '../../core/errors/invalid-input-error.js'
import type { CategoryCorpus } from '../../envs/grading/assets/category-corpus.js'
import type { LeafRegistry } from '../../envs/grading/assets/leaf-registry.js'
import { stableRecordId } from '../../envs/grading/stable-record-id.js'
import type { CanonicalRecord } from '../contracts/canonical-record.js'
import type { DatasetConfig } from '../contracts/dataset-config.js'
import { type ProcessedRecord, processedRecordSchema } from '../contracts/processed-record.js'
import { recordLocation } from './record-location.js'
import { type Resolution, type ResolutionRule, resolutionRules, TargetResolver } from './resolve-target.js'
import { type LabelAccounting, labelAccounting } from './unresolved-labels.js'

export interface CanonicalBuildInput {
  dataset: string
  config: DatasetConfig
  registry: LeafRegistry
  corpus?: CategoryCorpus
  /** The processed file's name, for issue paths. */
  source: string
  records: readonly unknown[]
  /** Records made by this process's preprocess step: already valid and one per id, so neither is checked. */
  trusted?: boolean
}

export interface ResolutionReport {
  format: 'canonical-resolution-report-v1'
  dataset: string
  input_records: number
  output_records: number
  status_counts: Record<string, number>
  unresolved: {
    missing_leaf: { count: number; by_leaf: Record<string, number> }
    path_mismatch: { count: number; by_id: Record<string, number> }
    code_unresolved: { count: number; by_leaf: Record<string, number> }
    /** `cell`: the spreadsheet row the record came from (`file:sheet:row N`). */
    records: { id: string; status: string; row: number | null; cell: string | null; reason: string }[]
  }
  /** How many records each rule resolved (see `resolutionRules`). */
  resolution_rules: Record<ResolutionRule, number>
  /** Records resolved by a fallback rule (leaf alone, whitespace ignored), with their cell and label. */
  resolved_by_fallback: { id: string; rule: ResolutionRule; cell: string | null; label: string; category_id: string }[]
  /** Which unresolved records carried a real label (lost) and which had none to resolve. */
  labels: LabelAccounting
  registry_size: number
}

/** Corpus leaf name → code, for `id_strategy: code`; a name with two codes is an error. */
export function codeByLeafName(
  corpus: CategoryCorpus | undefined,
  source: string,
): { map: Map<string, string>; issues: InputIssue[] } {
  const map = new Map<string, string>()
  const issues: InputIssue[] = []
  corpus?.categories.forEach((category, index) => {
    if (!category.code) return
    const existing = map.get(category.name)
    if (existing !== undefined && existing !== category.code) {
      issues.push({
        code: 'ambiguous_leaf_code',
        path: `${source}:categories.${index}.code`,
        message: `leaf name "${category.name}" maps to codes ${existing} and ${category.code}`,
      })
    }
    map.set(category.name, category.code)
  })
  return { map, issues }
}

/** Fallback resolutions listed in the report beyond their counts. */
const maxListed = 500

/** `file:sheet:row N` of a record's spreadsheet row, when it carries provenance. */
function sourceCell(record: ProcessedRecord): string | null {
  const source = record.provenance
  return source ? `${source.source_file}:${source.sheet}:row ${source.row}` : null
}

const sorted = (counter: Map<string, number>) => Object.fromEntries([...counter].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
const bump = (counter: Map<string, number>, key: string) => counter.set(key, (counter.get(key) ?? 0) + 1)

const isFallback = (rule: ResolutionRule | undefined) => rule === 'leaf_only' || rule === 'whitespace_insensitive'

/**
 * The canonical record of a processed one and its resolution: copied unless `adopt` (then extended in
 * place), its keys added in a fixed order (the written bytes depend on it).
 */
export function canonicalRecord(record: ProcessedRecord, resolution: Resolution, adopt: boolean): CanonicalRecord {
  // Copied (unless handed over), then extended: V8 builds `{ ...record, more }` far more slowly (~4 µs a record).
  const canonical: Record<string, unknown> = adopt ? (record as Record<string, unknown>) : Object.assign({}, record)
  // The written labels decided the resolution: a label resolved as written keeps its code (noted as
  // kept); otherwise the notes say what was stripped, as before (the written text was only for trying).
  if (resolution.written) {
    canonical.classification = resolution.written
    canonical.label_notes = record.label_notes?.map(({ field, code }) => ({ field, code, action: 'kept' }))
  } else if (record.label_notes?.some((note) => note.written !== undefined)) {
    canonical.label_notes = record.label_notes.map(({ written: _, ...note }) => note)
  }
  canonical.schema_version = 2
  canonical.resolution_status = resolution.status
  if (resolution.status === 'resolved') canonical.target = resolution.target
  else canonical.resolution_reason = resolution.reason
  // Only a fallback is recorded on the record (a label matched as given needs no note).
  if (isFallback(resolution.rule)) canonical.resolution_rule = resolution.rule
  canonical.split = null
  canonical.split_exclusion_reason = null
  return canonical as CanonicalRecord
}

export interface CanonicalBuilderOptions {
  dataset: string
  config: DatasetConfig
  registry: LeafRegistry
  codeByLeaf: ReadonlyMap<string, string>
  /** The processed file's name, for issue paths. */
  source: string
  /** Records made by this process's preprocess step: already valid and one per id, so neither is checked. */
  trusted?: boolean
  /** The records are handed over: each is extended in place instead of copied (the caller keeps no use of it). */
  adopt?: boolean
}

/** Builds canonical records one processed record at a time (so it can run while the input is read). */
export class CanonicalBuilder {
  readonly issues: InputIssue[] = []
  readonly records: CanonicalRecord[] = []
  private readonly resolver: TargetResolver
  private readonly ids = new Map<string, number>()
  private readonly statuses = new Map<string, number>()
  private readonly missing = new Map<string, number>()
  private readonly mismatched = new Map<string, number>()
  private readonly uncoded = new Map<string, number>()
  private readonly unresolved: ResolutionReport['unresolved']['records'] = []
  private readonly rules = new Map<ResolutionRule, number>(resolutionRules.map((rule) => [rule, 0]))
  private readonly fallbacks: ResolutionReport['resolved_by_fallback'] = []
  private readonly excluded: Set<string>
  private inputCount = 0

  constructor(private readonly options: CanonicalBuilderOptions) {
    this.resolver = new TargetResolver({ config: options.config, registry: options.registry, codeByLeaf: options.codeByLeaf })
    this.excluded = new Set(options.config.projection_excluded_category_ids)
  }

  /** Builds one record; returns it, or undefined when it became an issue instead. */
  add(raw: unknown): CanonicalRecord | undefined {
    const index = this.inputCount++
    const where = () => recordLocation(this.options.source, index, raw)
    const record = this.parse(raw, where)
    if (record === undefined || !this.checkId(record, index, where)) return undefined
    const resolution = this.resolver.resolve(record)
    if (resolution.status === 'resolved' && this.excluded.has(resolution.categoryId)) {
      this.issues.push({
        code: 'excluded_category',
        path: `${where()}:classification.${this.options.config.leaf_level}`,
        message: `leaf "${resolution.leaf}" resolves to ${resolution.categoryId}, which the dataset config excludes`,
      })
      return undefined
    }
    this.tally(record, resolution)
    const canonical = canonicalRecord(record, resolution, this.options.adopt === true)
    this.records.push(canonical)
    return canonical
  }

  /** The record, validated unless trusted; undefined (its schema issues noted) when it is not one. */
  private parse(raw: unknown, where: () => string): ProcessedRecord | undefined {
    if (this.options.trusted) return raw as ProcessedRecord
    const parsed = processedRecordSchema.safeParse(raw)
    if (parsed.success) return parsed.data as ProcessedRecord
    for (const issue of parsed.error.issues)
      this.issues.push({ code: issue.code, path: `${where()}:${issue.path.join('.')}`, message: issue.message })
    return undefined
  }

  /** False (the issue noted) when the id is stale for its metadata or repeats an earlier record's. */
  private checkId(record: ProcessedRecord, index: number, where: () => string): boolean {
    // A trusted record's id was computed from this very metadata a moment ago.
    const expected = this.options.trusted ? record.id : stableRecordId(this.options.dataset, record.metadata)
    if (record.id !== expected) {
      this.issues.push({
        code: 'stale_record_id',
        path: `${where()}:id`,
        message: `id ${record.id} does not match its metadata for dataset ${this.options.dataset} (expected ${expected})`,
      })
      return false
    }
    // Preprocessing keeps one record per id, so trusted records need no second index of their ids.
    if (this.options.trusted) return true
    const first = this.ids.get(record.id)
    if (first !== undefined) {
      this.issues.push({
        code: 'duplicate_record_id',
        path: `${where()}:id`,
        message: `id ${record.id} repeats record ${first + 1}`,
      })
      return false
    }
    this.ids.set(record.id, index)
    return true
  }

  /** Counts the resolution for the report; lists the unresolved and (up to `maxListed`) the fallbacks. */
  private tally(record: ProcessedRecord, resolution: Resolution): void {
    bump(this.statuses, resolution.status)
    if (resolution.status === 'missing_leaf') bump(this.missing, resolution.leaf)
    if (resolution.status === 'path_mismatch') bump(this.mismatched, resolution.categoryId)
    if (resolution.status === 'code_unresolved') bump(this.uncoded, resolution.leaf)
    const cell = sourceCell(record)
    if (resolution.status !== 'resolved') {
      this.unresolved.push({
        id: record.id,
        status: resolution.status,
        row: record.provenance?.row ?? null,
        cell,
        reason: resolution.reason,
      })
      return
    }
    if (!resolution.rule) return
    bump(this.rules, resolution.rule)
    if (isFallback(resolution.rule) && this.fallbacks.length < maxListed) {
      const labels = record.classification as Record<string, string>
      this.fallbacks.push({
        id: record.id,
        rule: resolution.rule,
        cell,
        label: this.options.config.path_fields.map((field) => labels[field] ?? '').join(' / '),
        category_id: resolution.categoryId,
      })
    }
  }

  report(): ResolutionReport {
    const count = (counter: Map<string, number>) => [...counter.values()].reduce((sum, value) => sum + value, 0)
    return {
      format: 'canonical-resolution-report-v1',
      dataset: this.options.dataset,
      input_records: this.inputCount,
      output_records: this.records.length,
      status_counts: sorted(this.statuses),
      unresolved: {
        missing_leaf: { count: count(this.missing), by_leaf: sorted(this.missing) },
        path_mismatch: { count: count(this.mismatched), by_id: sorted(this.mismatched) },
        code_unresolved: { count: count(this.uncoded), by_leaf: sorted(this.uncoded) },
        records: this.unresolved,
      },
      resolution_rules: Object.fromEntries(this.rules) as Record<ResolutionRule, number>,
      resolved_by_fallback: this.fallbacks,
      labels: labelAccounting(Object.fromEntries(this.statuses)),
      registry_size: this.options.registry.categories.length,
    }
  }
}

export function buildCanonicalRecords(input: CanonicalBuildInput & { codeByLeaf: ReadonlyMap<string, string> }): {
  records: CanonicalRecord[]
  report: ResolutionReport
  issues: InputIssue[]
} {
  const builder = new CanonicalBuilder(input)
  for (const record of input.records) builder.add(record)
  return { records: builder.records, report: builder.report(), issues: builder.issues }
}
