/**
 * @module release/canonical: one processed record's labels → its canonical target, or an explicit status
 * saying why it has none. Never auto-fixes a label and never matches semantically; the leaf registry is the
 * final constraint on which ids count as resolved.
 */
import type { LeafRegistry } from '../../envs/grading/assets/leaf-registry.js'
import { removeWhitespace } from '../../envs/grading/text/python-text.js'
import type { CanonicalTarget, ResolutionStatus } from '../contracts/canonical-record.js'
import type { DatasetConfig } from '../contracts/dataset-config.js'
import type { ProcessedRecord } from '../contracts/processed-record.js'

export interface Resolution {
  status: ResolutionStatus
  reason: string
  target?: CanonicalTarget
  leaf: string
  categoryId: string
}

export interface TargetResolverOptions {
  config: DatasetConfig
  registry: LeafRegistry
  /** Leaf name → code (id_strategy "code"). */
  codeByLeaf: ReadonlyMap<string, string>
}

export class TargetResolver {
  private readonly names = new Map<string, string>()
  private readonly leafIndex: number
  /** One target object per distinct label path, shared by its records (never mutated). */
  private readonly targets = new Map<string, CanonicalTarget>()

  constructor(private readonly options: TargetResolverOptions) {
    for (const category of options.registry.categories) this.names.set(category.category_id, category.name)
    this.leafIndex = options.config.path_fields.indexOf(options.config.leaf_level as never)
  }

  private registryHasName(name: string): boolean {
    for (const value of this.names.values()) if (value === name) return true
    return false
  }

  resolve(record: ProcessedRecord): Resolution {
    const { config } = this.options
    const classification = record.classification as Record<string, string>
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
