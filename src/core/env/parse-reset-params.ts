/** @module core/env: validates `reset({seed, options})` against an env's options schema, with coded issues. */
import type { z } from 'zod'
import { InvalidInputError } from '../errors/invalid-input-error.js'
import type { EnvSpec, ResetParams } from './env-api.js'

/** The seed (the spec's default when absent) and the parsed options; throws `InvalidInputError` otherwise. */
export function parseResetParams<Schema extends z.ZodType>(options: {
  spec: EnvSpec
  params: ResetParams
  optionsSchema: Schema
}): { seed: number; options: z.output<Schema> } {
  const seed = options.params.seed ?? options.spec.defaultSeed
  if (!Number.isSafeInteger(seed)) {
    throw new InvalidInputError({
      message: `Seed must be an integer, got ${String(seed)}.`,
      issues: [{ code: 'invalid_type', path: 'seed', message: 'Expected an integer.' }],
    })
  }
  const parsed = options.optionsSchema.safeParse(options.params.options ?? {})
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      code: issue.code,
      path: ['options', ...issue.path].join('.'),
      message: issue.message,
    }))
    throw new InvalidInputError({
      code: 'invalid_reset_options',
      message: `Invalid reset options for ${options.spec.id}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`,
      issues,
    })
  }
  return { seed, options: parsed.data }
}
