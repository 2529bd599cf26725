/**
 * @module envs/grading: the native-v2 prompt (`qwen3.5-native-tools-v2`): a system message with the
 * approved levels and the whole catalog as "choice_id|name" lines, and a user message with the field
 * metadata as compact JSON. Byte-identical to the original's `build_native_tool_prompt`.
 */
import { pythonDumpsCompact } from '../../core/python/python-json.js'
import type { GradingConfig } from './assets/grading-config.js'
import { gradingRubric } from './assets/grading-config.js'
import { nativeMetadataFields } from './assets/task-config.js'
import type { PromptChoices } from './prompt-choices.js'

/** The one trajectory format id of the native tool line (SFT, RL, gates). */
export const nativeToolTrajectoryFormat = 'qwen3.5-native-tools-v2'

export interface ChatPrompt {
  system: string
  user: string
}

const nativeSystemPreamble =
  'You classify one database field into one category and assign a sensitivity level.\n' +
  'The full category catalog is listed below as "choice_id|name" lines; recall ' +
  'candidates from this catalog directly using field and table semantics. When ' +
  'candidate names alone are ambiguous, call get_category_details or ' +
  'get_category_examples on the candidate ids to inspect definitions and samples. ' +
  'If the catalog seems insufficient you may call search_categories(field_name, ' +
  'table_name) once as a fallback hint. Make at most three tool calls total.\n' +
  'Your terminal response must be exactly one JSON object with keys answer and ' +
  'level. answer must be an opaque choice_id from the catalog, never a category ' +
  'name or canonical id. level must be one approved sensitivity code. Do not ' +
  'output reasoning, Markdown, or extra keys.\n' +
  'Approved sensitivity levels:\n'

/** "choice_id|display_name" lines, one per registry leaf. */
function renderCatalogIndex(choices: PromptChoices): string {
  return choices.choices.map((choice) => `${choice.choiceId}|${choice.displayName}`).join('\n')
}

/** The system message; it depends only on the task, so callers build it once. */
export function buildNativeSystemPrompt(options: { grading: GradingConfig; choices: PromptChoices }): string {
  return `${nativeSystemPreamble}${pythonDumpsCompact(gradingRubric(options.grading))}\nCatalog (choice_id|name):\n${renderCatalogIndex(options.choices)}`
}

/** The user message: the metadata fields in the given order, missing or null values as "". */
export function buildNativeUserPrompt(
  metadata: Readonly<Record<string, unknown>>,
  fields: readonly string[] = nativeMetadataFields,
): string {
  const ordered: Record<string, string> = {}
  for (const field of fields) ordered[field] = metadataText(metadata[field])
  return `Classify this field metadata:\n${pythonDumpsCompact(ordered)}`
}

/** Python's `str(value)` for the scalar metadata a record holds; null and missing become "". */
export function metadataText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  return String(value)
}

export function buildNativeToolPrompt(options: {
  metadata: Readonly<Record<string, unknown>>
  grading: GradingConfig
  choices: PromptChoices
  fields?: readonly string[]
}): ChatPrompt {
  return {
    system: buildNativeSystemPrompt(options),
    user: buildNativeUserPrompt(options.metadata, options.fields),
  }
}
