/**
 * @module release/audit: resolved records grouped by prompt key (pure), one record at a time, so a line can
 * group records while it makes them. The audit reads the groups; quarantine takes their conflicting ids.
 * Every resolved record is grouped, whatever its split: a conflict or a prompt shown in two splits is
 * found wherever it lies. The split named in the options only says which records (and keys) are counted
 * as audited.
 */
import { carriedCode } from '../../core/errors/error-code.js'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { PromptKeys } from '../canonical/prompt-key.js'
import { recordLocation } from '../canonical/record-location.js'
import type { CanonicalRecord, SplitName } from '../contracts/canonical-record.js'

export interface GroupOptions {
  /** The split whose records are counted as audited: a split name, or "all". */
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
  /** The records themselves and their 0-based positions in their file, in the order of `ids`. */
  records: CanonicalRecord[]
  positions: number[]
  /** Whether one of its records is in the audited split. */
  audited: boolean
  /** Whether its records lie in more than one split. */
  crossesSplits: boolean
}

interface KeyGroup extends PromptKeyGroup {
  /** The split of the first of its records that has one. */
  split: SplitName | null
}

/**
 * A resolved record that lacks what the key needs (a level, a field name that normalises to something)
 * becomes an issue, thrown by `check`.
 */
export class PromptKeyGroups {
  readonly issues: InputIssue[] = []
  /** How many records of the audited split were grouped. */
  audited = 0
  /** How many records were grouped (every split). */
  checked = 0
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
    const level = (record as Record<string, unknown>)[options.levelField]
    if (typeof level !== 'string' || !level.trim()) {
      this.issues.push({
        code: 'missing_level',
        path: `${recordLocation(options.source, index, record)}:${options.levelField}`,
        message: `a resolved record needs ${options.levelField}`,
      })
      return
    }
    const key = this.keys.of(record.metadata)
    if (this.keys.field(key) === '') {
      this.issues.push({
        code: 'empty_field_name',
        path: `${recordLocation(options.source, index, record)}:metadata.field_name`,
        message: 'field_name normalises to nothing',
      })
      return
    }
    const target = this.targetText(record.target?.category_id ?? '', level.trim())
    const split = record.split ?? null
    const audited = options.split === 'all' || split === options.split
    const group = this.byKey.get(key)
    if (group === undefined) {
      this.byKey.set(key, {
        key: this.keys.text(key),
        targets: [target],
        ids: [record.id],
        records: [record],
        positions: [index],
        audited,
        split,
        crossesSplits: false,
      })
    } else {
      if (!group.targets.includes(target)) group.targets.push(target)
      group.ids.push(record.id)
      group.records.push(record)
      group.positions.push(index)
      if (audited) group.audited = true
      if (split !== null) {
        if (group.split === null) group.split = split
        else if (group.split !== split && !group.crossesSplits) {
          group.crossesSplits = true
          this.crossing++
        }
      }
    }
    this.checked++
    if (audited) this.audited++
  }

  static of(records: readonly CanonicalRecord[], options: GroupOptions): PromptKeyGroups {
    const groups = new PromptKeyGroups(options)
    records.forEach((record, index) => {
      groups.add(record, index)
    })
    return groups
  }

  /** How many prompt keys the grouped records show. */
  get size(): number {
    return this.byKey.size
  }

  /** The groups, in the order their keys were first seen. */
  groups(): IterableIterator<PromptKeyGroup> {
    return this.byKey.values()
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
      code: carriedCode(issues[0]?.code ?? 'invalid_record'),
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
