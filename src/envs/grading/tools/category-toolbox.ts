/**
 * @module envs/grading: the category tools' behaviour: deterministic, in memory, lexical, with the
 * original's scoring and result shapes. No labels, no per-record data: the same toolbox serves every
 * episode of a task. Canonical ids are redacted from every returned text.
 */

import { normalizeKeyText, pythonStrip } from '../../../core/python/python-text.js'
import type { CorpusCategory } from '../assets/category-corpus.js'
import type { LeafCategory, LeafRegistry } from '../assets/leaf-registry.js'
import type { PromptChoices } from '../prompt-choices.js'
import { lexicalFeatures, shortSummary } from '../text/lexical-features.js'
import { maxChoiceIds, maxExampleLimit, searchTopK } from './category-tools.js'

export interface ToolError {
  code: string
  message: string
}

export type ToolOutcome<T> = { ok: true; result: T } | { ok: false; error: ToolError }

export interface SearchResult {
  candidates: { choice_id: string; name: string; summary: string }[]
}
export interface DetailsResult {
  categories: { choice_id: string; name: string; description: string; descriptions: string[] }[]
}
export interface ExamplesResult {
  categories: { choice_id: string; name: string; examples: string[] }[]
}
export interface BrowseResult {
  groups: { scope_key: string; category_count: number }[]
}

interface SearchDocument {
  index: number
  choiceId: string
  categoryId: string
  scopeKey: string
  name: string
  summary: string
  nameText: string
}

/** Which documents hold a feature in their name text and in their body text (ascending document index). */
interface FeaturePostings {
  name: number[]
  body: number[]
}

/** The field-only part of every document's search score, and the field's features. */
interface FieldPart {
  features: Set<string>
  scores: Int32Array
}

/** Entries each memo keeps before it starts afresh (keeps memory flat on any input). */
const memoLimit = 8192

const failure = (code: string, message: string): { ok: false; error: ToolError } => ({ ok: false, error: { code, message } })

/** The top-level group of a category: its first path element, else the first letter of its id's head. */
export function scopeKeyOf(category: LeafCategory): string {
  if (category.path.length > 0) return category.path[0] as string
  const head = category.category_id.includes(':')
    ? category.category_id.slice(category.category_id.indexOf(':') + 1)
    : category.category_id
  for (const character of head) if (/\p{L}/u.test(character)) return character.toUpperCase()
  return Array.from(head)[0] ?? ''
}

export class CategoryToolbox {
  private readonly documents: SearchDocument[]
  /** Feature → documents: a query touches only the documents that share a feature with it. */
  private readonly postings = new Map<string, FeaturePostings>()
  /** Per-document overlap counters, reused by every search (table∩name, table-only features∩body). */
  private readonly tableHits: Int32Array
  private readonly bodyHits: Int32Array
  /**
   * Field names repeat across tables, so the part of a score that depends on the field alone (name match,
   * field∩name, field∩body) and the features of table names are kept per text. Bounded; pure memoisation.
   */
  private readonly fieldParts = new Map<string, FieldPart>()
  private readonly tableFeatures = new Map<string, Set<string>>()
  private readonly canonicalIds: string[]
  private readonly groups: BrowseResult['groups']

  private readonly corpus: ReadonlyMap<string, CorpusCategory>
  private readonly choices: PromptChoices

  constructor(options: { registry: LeafRegistry; corpus: ReadonlyMap<string, CorpusCategory>; choices: PromptChoices }) {
    const { registry, corpus, choices } = options
    this.corpus = corpus
    this.choices = choices
    // Longest first, so an id that contains another id is redacted whole.
    this.canonicalIds = registry.categories.map((category) => category.category_id).sort((a, b) => b.length - a.length)
    this.documents = choices.choices.map((choice, index) => {
      const category = registry.categories[index] as LeafCategory
      const entry = corpus.get(choice.categoryId) as CorpusCategory
      const summary = entry.description || category.description
      const nameParts = [choice.displayName, category.name, ...category.path].filter((part) => part)
      const bodyParts = [summary, ...entry.descriptions, ...entry.examples, ...entry.path].filter((part) => part)
      for (const feature of lexicalFeatures(nameParts.join(' '))) this.posting(feature).name.push(index)
      for (const feature of lexicalFeatures(bodyParts.join(' '))) this.posting(feature).body.push(index)
      return {
        index,
        choiceId: choice.choiceId,
        categoryId: choice.categoryId,
        scopeKey: scopeKeyOf(category),
        name: this.publicText(choice.displayName),
        summary: shortSummary(this.publicText(summary)),
        nameText: normalizeKeyText(nameParts.join(' ')),
      }
    })
    this.tableHits = new Int32Array(this.documents.length)
    this.bodyHits = new Int32Array(this.documents.length)
    const counts = new Map<string, number>()
    for (const document of this.documents) counts.set(document.scopeKey, (counts.get(document.scopeKey) ?? 0) + 1)
    this.groups = [...counts].map(([scope_key, category_count]) => ({ scope_key, category_count }))
  }

  private posting(feature: string): FeaturePostings {
    let posting = this.postings.get(feature)
    if (!posting) {
      posting = { name: [], body: [] }
      this.postings.set(feature, posting)
    }
    return posting
  }

  /** Adds one to `hits` of every document whose `side` holds one of `features` (set overlap counts). */
  private countHits(features: ReadonlySet<string>, side: keyof FeaturePostings, hits: Int32Array): void {
    hits.fill(0)
    for (const feature of features) {
      const documents = this.postings.get(feature)?.[side]
      if (documents) for (const index of documents) hits[index] = (hits[index] as number) + 1
    }
  }

  /** Name match + 8·|field∩name| + 2·|field∩body| per document, for a normalised field name. */
  private fieldPart(field: string): FieldPart {
    let part = this.fieldParts.get(field)
    if (part) return part
    const features = lexicalFeatures(field)
    const scores = new Int32Array(this.documents.length)
    for (const feature of features) {
      const posting = this.postings.get(feature)
      if (!posting) continue
      for (const index of posting.name) scores[index] = (scores[index] as number) + 8
      for (const index of posting.body) scores[index] = (scores[index] as number) + 2
    }
    for (const document of this.documents) {
      if (field === document.nameText) scores[document.index] = (scores[document.index] as number) + 100
      else if (document.nameText.includes(field) || field.includes(document.nameText))
        scores[document.index] = (scores[document.index] as number) + 35
    }
    part = { features, scores }
    if (this.fieldParts.size >= memoLimit) this.fieldParts.clear()
    this.fieldParts.set(field, part)
    return part
  }

  private tableFeaturesOf(tableName: string): Set<string> {
    let features = this.tableFeatures.get(tableName)
    if (features) return features
    features = lexicalFeatures(normalizeKeyText(tableName))
    if (this.tableFeatures.size >= memoLimit) this.tableFeatures.clear()
    this.tableFeatures.set(tableName, features)
    return features
  }

  /** Model-visible text with any canonical id replaced by "[redacted-id]". */
  publicText(value: string): string {
    let result = value
    for (const id of this.canonicalIds) if (result.includes(id)) result = result.replaceAll(id, '[redacted-id]')
    return result
  }

  /** The scope keys `browse_categories` lists, in registry order of first appearance. */
  scopeKeys(): string[] {
    return this.groups.map((group) => group.scope_key)
  }

  /** The scope key of a canonical category id. */
  scopeOfCategory(categoryId: string): string {
    return (this.documents.find((document) => document.categoryId === categoryId) as SearchDocument).scopeKey
  }

  search(options: { fieldName: string; tableName: string; topK?: number; scope?: string }): ToolOutcome<SearchResult> {
    const field = normalizeKeyText(options.fieldName)
    if (!field) return failure('empty_field_name', 'field_name must be a non-empty string')
    const topK = options.topK ?? searchTopK
    if (topK !== searchTopK) return failure('invalid_top_k', `top_k is fixed at ${searchTopK}`)
    if (options.scope !== undefined && !this.groups.some((group) => group.scope_key === options.scope)) {
      return failure('unknown_scope', `unknown scope_key "${options.scope}"; call browse_categories for the valid keys`)
    }
    const part = this.fieldPart(field)
    const tableFeatures = this.tableFeaturesOf(options.tableName)
    this.countHits(tableFeatures, 'name', this.tableHits)
    // |query∩body| = |field∩body| (in the field part) + |(table \ field)∩body|.
    this.bodyHits.fill(0)
    for (const feature of tableFeatures) {
      if (part.features.has(feature)) continue
      const documents = this.postings.get(feature)?.body
      if (documents) for (const index of documents) this.bodyHits[index] = (this.bodyHits[index] as number) + 1
    }
    // The best topK by score, ties by registry order: an insertion into a short sorted list (no full sort).
    const best: SearchDocument[] = []
    const bestScores: number[] = []
    for (const document of this.documents) {
      if (options.scope !== undefined && document.scopeKey !== options.scope) continue
      const index = document.index
      const score = (part.scores[index] as number) + 3 * (this.tableHits[index] as number) + 2 * (this.bodyHits[index] as number)
      // Documents come in index order, so a later one ranks after every equal score already kept.
      let at = best.length
      while (at > 0 && (bestScores[at - 1] as number) < score) at--
      if (at >= topK) continue
      best.splice(at, 0, document)
      bestScores.splice(at, 0, score)
      if (best.length > topK) {
        best.pop()
        bestScores.pop()
      }
    }
    return {
      ok: true,
      result: {
        candidates: best.map((document) => ({
          choice_id: document.choiceId,
          name: document.name,
          summary: document.summary,
        })),
      },
    }
  }

  details(choiceIds: readonly string[]): ToolOutcome<DetailsResult> {
    const checked = this.checkChoiceIds(choiceIds)
    if (!checked.ok) return checked
    const categories = this.describeChoices(checked.result, (entry) => ({
      description: this.publicText(entry.description),
      descriptions: entry.descriptions.map((text) => this.publicText(text)),
    }))
    return { ok: true, result: { categories } }
  }

  examples(choiceIds: readonly string[], limit = 2): ToolOutcome<ExamplesResult> {
    const checked = this.checkChoiceIds(choiceIds)
    if (!checked.ok) return checked
    if (!Number.isInteger(limit) || limit < 1 || limit > maxExampleLimit) {
      return failure('invalid_limit', `limit must be an integer between 1 and ${maxExampleLimit}`)
    }
    const categories = this.describeChoices(checked.result, (entry) => ({
      examples: entry.examples.slice(0, limit).map((text) => this.publicText(text)),
    }))
    return { ok: true, result: { categories } }
  }

  browse(): ToolOutcome<BrowseResult> {
    return { ok: true, result: { groups: this.groups.map((group) => ({ ...group })) } }
  }

  /** Per checked choice: its id and public name, then what `fields` reads from its corpus entry. */
  private describeChoices<T extends object>(
    choiceIds: readonly string[],
    fields: (entry: CorpusCategory) => T,
  ): ({ choice_id: string; name: string } & T)[] {
    return choiceIds.map((choiceId) => {
      const choice = this.choices.byChoice(choiceId)
      const entry = this.corpus.get(choice.categoryId) as CorpusCategory
      return { choice_id: choiceId, name: this.publicText(choice.displayName), ...fields(entry) }
    })
  }

  private checkChoiceIds(raw: readonly string[]): ToolOutcome<string[]> {
    if (raw.length < 1 || raw.length > maxChoiceIds) {
      return failure('invalid_choice_ids', `choice_ids must contain between 1 and ${maxChoiceIds} ids`)
    }
    const ids = raw.map((id) => pythonStrip(id))
    if (ids.some((id) => !id)) return failure('invalid_choice_ids', 'choice_ids must contain non-empty strings')
    if (new Set(ids).size !== ids.length) return failure('duplicate_choice_ids', 'choice_ids must be unique')
    const unknown = ids.filter((id) => !this.choices.hasChoiceId(id))
    if (unknown.length > 0) return failure('unknown_choice_ids', `unknown opaque choice id(s): ${unknown.join(', ')}`)
    return { ok: true, result: ids }
  }
}
