/** @module envs/grading: text an asset or a record gives, read trimmed; the non-empty form refuses what trims to nothing. */
import { z } from 'zod'

const trimmedText = z.string().transform((value) => value.trim())

/** Trimmed text that must not be empty; `message` names the field in the refusal. */
export const nonEmptyText = (message?: string) => trimmedText.pipe(z.string().min(1, message))

/** A list of trimmed texts; a missing list reads empty. */
export const trimmedTextList = z
  .array(trimmedText)
  .nullish()
  .transform((parts) => parts ?? [])

/** Trimmed text, or `null` when missing. */
export const trimmedTextOrNull = z
  .string()
  .nullish()
  .transform((value) => (value === undefined || value === null ? null : value.trim()))
