/**
 * @module release/audit: audited records grouped by prompt key (pure), one record at a time, so a line can
 * group records while it makes them. The audit reads the groups; quarantine takes their conflicting ids.
 */
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { PromptKeys } from '../canonical/prompt-key.js'
import type { CanonicalRecord, SplitName } from '../contracts/canonical-record.js'

export interface GroupOptions {
  /** A split name, or "all". */
  split: string
  levelField: string
  /** For issue paths. */
  source: string
}

/** One prompt key's records: their targets (`category\0level`, in order first seen) and ids. */
export interface PromptKeyGroup {
  /** The key's text, `field \u001f table` (normalised names). */
  key: string
  targets: string[]
  ids: string[]
}

interface KeyGroup extends PromptKeyGroup {
  /** The split of the first of its records that has one. */
  split: SplitName | null
  /** Whether its records lie in more than one split. */
  crossesSplits: boolean
}

/**
 * A resolved record that lacks what the key needs (a level, a field name that normalises to something)
 * becomes an issue, thrown by `check`.
 */
export class PromptKeyGroups {
  readonly issues: InputIssue[] = []
  /** How many records were grouped. */
  audited = 0
  private readonly keys = new PromptKeys()
  /** Key (see `PromptKeys`) → its group, in the order first seen. */
  private readonly byKey = new Map<number, KeyGroup>()
  /** category id → level → target text, so equal targets are one string. */
  private readonly targetTexts = new Map<string, Map<string, string>>()
  private crossing = 0

  constructor(private readonly options: GroupOptions) {}

  private targetText(category: string, level: string): string {
    let byLevel = this.targetTexts.get(category)
    if (!byLevel) {
      byLevel = new Map()
      this.targetTexts.set(category, byLevel)
    }
    let text = byLevel.get(level)
    if (text === undefined) {
      text = `${category}\0${level}`
      byLevel.set(level, text)
    }
    return text
  }

  /** `index`: the record's 0-based position in its file, for issue paths. */
  add(record: CanonicalRecord, index: number): void {
    const { options } = this
    if (record.resolution_status !== 'resolved') return
    if (options.split !== 'all' && record.split !== options.split) return
    const level = (record as Record<string, unknown>)[options.levelField]
    if (typeof level !== 'string' || !level.trim()) {
      this.issues.push({
        code: 'missing_level',
        path: `${options.source}:record ${index + 1}:${options.levelField}`,
        message: `a resolved record needs ${options.levelField}`,
      })
      return
    }
    const key = this.keys.of(record.metadata)
    if (this.keys.field(key) === '') {
      this.issues.push({
        code: 'empty_field_name',
        path: `${options.source}:record ${index + 1}:metadata.field_name`,
        message: 'field_name normalises to nothing',
      })
      return
    }
    const target = this.targetText(record.target?.category_id ?? '', level.trim())
    const split = record.split ?? null
    const group = this.byKey.get(key)
    if (group === undefined) {
      this.byKey.set(key, { key: this.keys.text(key), targets: [target], ids: [record.id], split, crossesSplits: false })
    } else {
      if (!group.targets.includes(target)) group.targets.push(target)
      group.ids.push(record.id)
      if (split !== null) {
        if (group.split === null) group.split = split
        else if (group.split !== split && !group.crossesSplits) {
          group.crossesSplits = true
          this.crossing++
        }
      }
    }
    this.audited++
  }

  static of(records: readonly CanonicalRecord[], options: GroupOptions): PromptKeyGroups {
    const groups = new PromptKeyGroups(options)
    records.forEach((record, index) => {
      groups.add(record, index)
    })
    return groups
  }

  /** How many prompt keys the audited records show. */
  get size(): number {
    return this.byKey.size
  }

  /** The groups, in the order their keys were first seen. */
  *groups(): IterableIterator<PromptKeyGroup> {
    for (const { key, targets, ids } of this.byKey.values()) yield { key, targets, ids }
  }

  /** Prompt keys whose grouped records lie in more than one split. */
  get crossSplitKeys(): number {
    return this.crossing
  }

  /** Throws when an audited record lacked what its key needs. */
  check(): void {
    const { issues } = this
    if (issues.length === 0) return
    throw new InvalidInputError({
      code: issues[0]?.code ?? 'invalid_record',
      message: `${this.options.source} cannot be audited: ${issues[0]?.path}: ${issues[0]?.message}.`,
      issues: issues.slice(0, 500),
    })
  }

  /** Ids of the records in a group with more than one target. */
  conflictingIds(): Set<string> {
    const ids = new Set<string>()
    for (const group of this.byKey.values()) if (group.targets.length > 1) for (const id of group.ids) ids.add(id)
    return ids
  }
}
