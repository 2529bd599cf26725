/**
 * @module release/canonical: one processed record's labels → its canonical target, or an explicit status
 * saying why it has none. Never auto-fixes a label and never matches semantically; the leaf registry is the
 * final constraint on which ids count as resolved.
 */
import { collapseStrip, removeWhitespace } from '../../core/python/python-text.js'
import type { LeafCategory, LeafRegistry } from '../../envs/grading/assets/leaf-registry.js'
import type { CanonicalTarget, ResolutionStatus } from '../contracts/canonical-record.js'
import type { DatasetConfig } from '../contracts/dataset-config.js'
import type { ProcessedRecord } from '../contracts/processed-record.js'

/**
 * How a resolved label was matched, tried in this order: the label as written in the spreadsheet (a
 * trailing code included, which preprocessing records in `label_notes`), then with its trailing code
 * stripped, then by its leaf alone when one registry leaf has that name (the leaf as written first), then
 * with whitespace next to CJK characters ignored (`护理 记录` = `护理记录`) when that names one leaf.
 */
export const resolutionRules = ['as_written', 'code_stripped', 'leaf_only', 'whitespace_insensitive'] as const
export type ResolutionRule = (typeof resolutionRules)[number]

export interface Resolution {
  status: ResolutionStatus
  /** For a resolved label: the rule that matched it. */
  rule?: ResolutionRule
  reason: string
  target?: CanonicalTarget
  leaf: string
  categoryId: string
  /** Resolved as written where preprocessing stripped a code: the labels that matched. */
  written?: Record<string, string>
}

export interface TargetResolverOptions {
  config: DatasetConfig
  registry: LeafRegistry
  /** Leaf name → code (id_strategy "code"). */
  codeByLeaf: ReadonlyMap<string, string>
}

const cjk = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3000-\\u303f'
const spaceByCjk = new RegExp(`(?<=[${cjk}]) | (?=[${cjk}])`, 'gu')

/**
 * A name with full-width forms folded (NFKC) and whitespace next to a CJK character removed; other
 * whitespace (between two Latin words) stays, as one space, since it separates words.
 */
export const bareName = (name: string) => collapseStrip(name.normalize('NFKC')).replace(spaceByCjk, '')

/** The labels as written where preprocessing stripped a trailing code; `undefined` when it stripped none. */
function writtenLabels(record: ProcessedRecord): Record<string, string> | undefined {
  let written: Record<string, string> | undefined
  for (const note of record.label_notes ?? []) {
    if (note.action !== 'stripped' || note.written === undefined) continue
    written ??= { ...(record.classification as Record<string, string>) }
    written[note.field] = note.written
  }
  return written
}

export class TargetResolver {
  private readonly names = new Map<string, string>()
  /** Leaf name → its categories, and the same with whitespace removed (for the fallback rules). */
  private readonly byName = new Map<string, LeafCategory[]>()
  private readonly byBareName = new Map<string, LeafCategory[]>()
  private readonly leafIndex: number
  /** One target object per distinct label path, shared by its records (never mutated). */
  private readonly targets = new Map<string, CanonicalTarget>()

  constructor(private readonly options: TargetResolverOptions) {
    for (const category of options.registry.categories) {
      this.names.set(category.category_id, category.name)
      this.byName.set(category.name, [...(this.byName.get(category.name) ?? []), category])
      const bare = bareName(category.name)
      this.byBareName.set(bare, [...(this.byBareName.get(bare) ?? []), category])
    }
    this.leafIndex = options.config.path_fields.indexOf(options.config.leaf_level as never)
  }

  private registryHasName(name: string): boolean {
    for (const value of this.names.values()) if (value === name) return true
    return false
  }

  resolve(record: ProcessedRecord): Resolution {
    const written = writtenLabels(record)
    if (written) {
      const asWritten = this.resolveLabels(record, written)
      if (asWritten.status === 'resolved') return { ...asWritten, rule: 'as_written', written }
    }
    const primary = this.resolveLabels(record, record.classification as Record<string, string>)
    if (primary.status === 'resolved') {
      const stripped = record.label_notes?.some((note) => note.action === 'stripped') ?? false
      return { ...primary, rule: stripped ? 'code_stripped' : 'as_written' }
    }
    if (primary.status !== 'missing_leaf' && primary.status !== 'path_mismatch') return primary
    if (this.options.config.id_strategy === 'code') return primary
    // The fallbacks need one registry leaf, found by its name alone, then with whitespace ignored; the
    // leaf as written is tried before the leaf with its code stripped.
    const writtenLeaf = written?.[this.options.config.leaf_level]?.trim()
    const leaves = writtenLeaf && writtenLeaf !== primary.leaf ? [writtenLeaf, primary.leaf] : [primary.leaf]
    for (const [rule, index, key] of [
      ['leaf_only', this.byName, (leaf: string) => leaf],
      ['whitespace_insensitive', this.byBareName, bareName],
    ] as const) {
      for (const leaf of leaves) {
        const candidates = index.get(key(leaf))
        if (candidates?.length !== 1) continue
        const category = candidates[0] as LeafCategory
        const target: CanonicalTarget = {
          leaf_level: this.options.config.leaf_level,
          leaf_name: category.name,
          category_id: category.category_id,
          category_path: [...(category.path ?? []), category.name],
        }
        return { status: 'resolved', rule, reason: '', target, leaf: category.name, categoryId: category.category_id }
      }
    }
    return primary
  }

  private resolveLabels(record: ProcessedRecord, classification: Record<string, string>): Resolution {
    const { config } = this.options
    const levels = config.path_fields.map((field) => (classification[field] ?? '').trim())
    const leaf = levels[this.leafIndex] ?? ''
    if (record.label_status === 'unlabeled')
      return { status: 'unlabeled', reason: 'label_status is unlabeled', leaf, categoryId: '' }
    if (!leaf) return { status: 'invalid_record', reason: `${config.leaf_level} is empty`, leaf, categoryId: '' }
    if (config.placeholder_labels.includes(leaf))
      return { status: 'placeholder', reason: `placeholder label "${leaf}"`, leaf, categoryId: '' }
    let categoryId: string
    if (config.id_strategy === 'code') {
      const code = this.options.codeByLeaf.get(leaf)
      if (code === undefined)
        return { status: 'code_unresolved', reason: `no code for leaf "${leaf}" in the corpus`, leaf, categoryId: '' }
      categoryId = code
    } else {
      const identity = config.identity_fields.length > 0 ? config.identity_fields : config.path_fields
      const parts = identity.map((field) => removeWhitespace(levels[config.path_fields.indexOf(field as never)] ?? ''))
      categoryId = `${config.dataset}:${parts.join('.')}`
    }
    const targetKey = `${categoryId}\u0000${levels.join('\u0000')}`
    let target = this.targets.get(targetKey)
    if (!target) {
      target = {
        leaf_level: config.leaf_level,
        leaf_name: leaf,
        category_id: categoryId,
        category_path: levels.filter((part) => part),
      }
      this.targets.set(targetKey, target)
    }
    const registryName = this.names.get(categoryId)
    if (registryName === undefined) {
      if (this.registryHasName(leaf)) {
        return {
          status: 'path_mismatch',
          reason: `leaf "${leaf}" is in the registry, but its identity ${categoryId} is not`,
          target,
          leaf,
          categoryId,
        }
      }
      return { status: 'missing_leaf', reason: `leaf "${leaf}" is not in the registry`, target, leaf, categoryId }
    }
    if (registryName !== leaf) {
      return {
        status: 'path_mismatch',
        reason: `registry category ${categoryId} is named "${registryName}", not "${leaf}"`,
        target,
        leaf,
        categoryId,
      }
    }
    return { status: 'resolved', reason: '', target, leaf, categoryId }
  }
}
