/**
 * @module envs/grading: the legacy two-stage prompts (the old SFT line, exactly [system, user, assistant]):
 * stage 1 retrieves five candidates from the whole catalog, stage 2 picks one of a five-candidate bundle
 * and a level. Byte-identical to the original's `build_stage1_prompt` / `build_stage2_prompt` with grading;
 * task-level text is rendered once, per-record text is concatenated.
 */
import { hash } from 'node:crypto'
import { loneSurrogateEscape, pythonDumpsCompact, pythonDumpsUnicode } from '../../../core/python/python-json.js'
import { gradingRubric } from '../assets/grading-config.js'
import type { GradingTask } from '../grading-task.js'

const stage1SystemPrompt =
  'You are a leaf-category candidate retriever. Return exactly one JSON object ' +
  'with key "candidates". ' +
  'The value must contain exactly five unique choice ids from the catalog. ' +
  'Do not output Markdown, commentary, canonical category ids, or any other keys.'

const stage2SystemPrompt =
  'You are a leaf-category reranker. Return exactly one JSON object with ' +
  'keys "answer" and "level". ' +
  '"answer" must be one of the five candidate ids "1" through "5". ' +
  '"level" must be exactly one of the listed sensitivity level codes. ' +
  'Do not output Markdown, commentary, or any other keys.'

/** Fisher–Yates driven by the bytes of sha256(source_id): the same id always gives the same order. */
function permuteBySource<T>(items: readonly T[], sourceId: string): T[] {
  // A hex digest: Node makes it several times faster than a Buffer digest, and a byte is two of its digits.
  const digest = hash('sha256', sourceId, 'hex')
  const result = items.slice()
  for (let index = result.length - 1; index > 0; index--) {
    const at = (index % 32) * 2
    const swap = Number.parseInt(digest.slice(at, at + 2), 16) % (index + 1)
    const held = result[index] as T
    result[index] = result[swap] as T
    result[swap] = held
  }
  return result
}

export interface LegacyRowText {
  candidates: string[]
  stage1: [system: string, user: string, assistant: string]
  stage2: [system: string, user: string, assistant: string]
}

/**
 * The same row with each user message as segments: every segment but the last is task-level text shared
 * (the same string object) by all rows, the last is the record's metadata. Writers encode shared segments once.
 */
export interface LegacyRowParts {
  candidates: string[]
  stage1: [system: string, user: readonly string[], assistant: string]
  stage2: [system: string, user: readonly string[], assistant: string]
}

export interface LegacyRowOptions {
  sourceId: string
  metadata: Readonly<Record<string, unknown>>
  groundTruth: string
  level: string
}

export class LegacyPromptBuilder {
  private readonly categoryIds: string[]
  private readonly choiceIndex = new Map<string, number>()
  private readonly stage1Prefix: string
  /** Per category, its bundle entry at positions 1..5 (`{"id":"k",…}`). */
  private readonly bundleEntries = new Map<string, string[]>()
  private readonly bundleTail: string
  /** Per metadata field, `{"field":` for the first and `,"field":` for the others. */
  private readonly fieldKeys: string[]
  /** Per ground truth, its candidates before the permutation. */
  private readonly unpermuted = new Map<string, string[]>()

  constructor(
    private readonly task: GradingTask,
    private readonly fields: readonly string[] = task.taskConfig.metadata_fields,
  ) {
    this.fieldKeys = fields.map((field, index) => `${index === 0 ? '{' : ','}${pythonDumpsCompact(field)}:`)
    this.categoryIds = task.registry.categories.map((category) => category.category_id)
    for (const [index, id] of this.categoryIds.entries()) this.choiceIndex.set(id, index + 1)
    const catalog = task.choices.choices.map((choice, index) => [
      choice.choiceId,
      choice.displayName,
      task.registry.categories[index]?.description ?? '',
    ])
    this.stage1Prefix = `Retrieve five candidate leaf categories from this catalog:\n${pythonDumpsUnicode(catalog)}\nField metadata:\n`
    for (const choice of task.choices.choices) {
      const entry = task.corpus.get(choice.categoryId)
      // `{"id":"k"` is per position; everything after it is per category and rendered once.
      const rendered = pythonDumpsCompact({
        id: '',
        name: choice.displayName,
        description: entry?.description ?? '',
        descriptions: entry?.descriptions ?? [],
        examples: entry?.examples ?? [],
      })
      const suffix = rendered.slice('{"id":""'.length)
      this.bundleEntries.set(
        choice.categoryId,
        [1, 2, 3, 4, 5].map((position) => `{"id":"${position}"${suffix}`),
      )
    }
    this.bundleTail = `]\nSensitivity levels:\n${pythonDumpsCompact(gradingRubric(task.grading))}\nField metadata:\n`
  }

  /** The ground truth plus the first four other registry ids, permuted by the source id. */
  candidates(groundTruth: string, sourceId: string): string[] {
    let unpermuted = this.unpermuted.get(groundTruth)
    if (!unpermuted) {
      unpermuted = [groundTruth]
      for (const id of this.categoryIds) {
        if (id !== groundTruth) unpermuted.push(id)
        if (unpermuted.length === 5) break
      }
      this.unpermuted.set(groundTruth, unpermuted)
    }
    return permuteBySource(unpermuted, sourceId)
  }

  /** `json.dumps({field: metadata.get(field, "") ...}, separators=(",", ":"), ensure_ascii=False)`. */
  metadataText(metadata: Readonly<Record<string, unknown>>): string {
    // String values (the usual case) are quoted one by one after their pre-rendered keys; any other value,
    // or a lone surrogate (which JSON.stringify escapes and Python does not), takes the general writer.
    let text = ''
    for (let index = 0; index < this.fields.length; index++) {
      const value = metadata[this.fields[index] as string] ?? ''
      if (typeof value !== 'string') return this.metadataTextSlowly(metadata)
      text += `${this.fieldKeys[index]}${JSON.stringify(value)}`
    }
    if (text === '') return '{}'
    return loneSurrogateEscape.test(text) ? this.metadataTextSlowly(metadata) : `${text}}`
  }

  private metadataTextSlowly(metadata: Readonly<Record<string, unknown>>): string {
    const selected: Record<string, unknown> = {}
    for (const field of this.fields) selected[field] = metadata[field] ?? ''
    return pythonDumpsCompact(selected)
  }

  buildParts(options: LegacyRowOptions): LegacyRowParts {
    const candidates = this.candidates(options.groundTruth, options.sourceId)
    const metadataText = this.metadataText(options.metadata)
    const stage1Answer = `{"candidates":[${candidates.map((id) => `"${this.choiceIndex.get(id)}"`).join(',')}]}`
    const bundle: string[] = ['Candidate bundle:\n[']
    candidates.forEach((id, index) => {
      if (index > 0) bundle.push(',')
      bundle.push((this.bundleEntries.get(id) as string[])[index] as string)
    })
    bundle.push(this.bundleTail, metadataText)
    const answer = candidates.indexOf(options.groundTruth) + 1
    return {
      candidates,
      stage1: [stage1SystemPrompt, [this.stage1Prefix, metadataText], stage1Answer],
      stage2: [stage2SystemPrompt, bundle, `{"answer":"${answer}","level":${pythonDumpsCompact(options.level)}}`],
    }
  }

  build(options: LegacyRowOptions): LegacyRowText {
    const parts = this.buildParts(options)
    return {
      candidates: parts.candidates,
      stage1: [parts.stage1[0], parts.stage1[1].join(''), parts.stage1[2]],
      stage2: [parts.stage2[0], parts.stage2[1].join(''), parts.stage2[2]],
    }
  }

  /** The canonical id behind a stage-1 choice id (for validation). */
  categoryOfChoice(choiceId: string): string | undefined {
    return this.task.choices.hasChoiceId(choiceId) ? this.task.choices.byChoice(choiceId).categoryId : undefined
  }
}
