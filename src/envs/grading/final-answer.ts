/**
 * @module envs/grading: the terminal answer: exactly one JSON object `{"answer": <choice_id>, "level":
 * <level code>}`, parsed strictly (no Markdown, no extra or duplicate keys, known ids and levels only).
 * The reward is 1.0 iff both the category and the level are right; a malformed answer scores 0 with a
 * recorded reason and never throws.
 */

import { pythonStrip } from '../../core/python/python-text.js'
import { parseStrictJson } from '../../core/python/strict-json.js'
import type { GradingConfig } from './assets/grading-config.js'
import type { PromptChoices } from './prompt-choices.js'

export interface FinalAnswer {
  choiceId: string
  categoryId: string
  level: string
}

export type FinalAnswerParse = { ok: true; answer: FinalAnswer } | { ok: false; code: string; reason: string }

const rejected = (code: string, reason: string): FinalAnswerParse => ({ ok: false, code, reason })

export function parseFinalAnswer(text: unknown, options: { choices: PromptChoices; grading: GradingConfig }): FinalAnswerParse {
  if (typeof text !== 'string' || !pythonStrip(text))
    return rejected('empty_answer', 'final answer must be a non-empty JSON object')
  const parsed = parseStrictJson(text)
  if (!parsed.ok) return rejected('answer_not_json', `final answer must be exactly one JSON object: ${parsed.reason}`)
  const value = parsed.value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return rejected('answer_not_object', 'final answer must be a JSON object')
  }
  const keys = Object.keys(value).sort()
  if (keys.length !== 2 || keys[0] !== 'answer' || keys[1] !== 'level') {
    return rejected('answer_keys', `final answer must contain exactly answer and level, got ${JSON.stringify(keys)}`)
  }
  const { answer, level } = value as { answer: unknown; level: unknown }
  if (typeof answer !== 'string' || !pythonStrip(answer)) {
    return rejected('answer_invalid', 'final answer.answer must be a non-empty opaque choice id')
  }
  if (typeof level !== 'string' || !pythonStrip(level)) {
    return rejected('level_invalid', 'final answer.level must be a non-empty level code')
  }
  const choiceId = pythonStrip(answer)
  const levelCode = pythonStrip(level)
  if (!options.choices.hasChoiceId(choiceId))
    return rejected('unknown_choice_id', 'final answer.answer is not a known opaque choice id')
  if (!options.grading.levels.includes(levelCode))
    return rejected('unknown_level', 'final answer.level is outside the approved rubric')
  return { ok: true, answer: { choiceId, categoryId: options.choices.byChoice(choiceId).categoryId, level: levelCode } }
}

/** Joint exact-match reward of a terminal reply: 1.0 iff category and level are both right. */
export function exactAnswerReward(options: {
  text: unknown
  groundTruth: string
  groundTruthLevel: string
  choices: PromptChoices
  grading: GradingConfig
}): number {
  const parsed = parseFinalAnswer(options.text, options)
  return parsed.ok && parsed.answer.categoryId === options.groundTruth && parsed.answer.level === options.groundTruthLevel ? 1 : 0
}
