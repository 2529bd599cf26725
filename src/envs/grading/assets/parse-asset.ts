/**
 * @module envs/grading: one way to validate a task asset: zod issues become an `InvalidInputError` whose
 * issue paths name the source (`registry.json:categories.3.category_id`).
 */

import type { z } from 'zod'
import type { ErrorCode } from '../../../core/errors/error-code.js'
import { type InputIssue, InvalidInputError } from '../../../core/errors/invalid-input-error.js'

export interface AssetSource {
  /** What the asset is called in messages ("leaf registry"). */
  kind: string
  /** Where it came from (a file path or a label); prefixes every issue path. */
  source: string
  /** The error code when the asset is invalid. */
  code: ErrorCode
}

/** `source:dotted.path` (or just the source for a top-level issue). */
export function issuePath(source: string, path: readonly PropertyKey[]): string {
  return path.length === 0 ? source : `${source}:${path.map(String).join('.')}`
}

/** Throws one error listing every problem. */
export function invalidAsset(asset: AssetSource, issues: readonly InputIssue[]): never {
  const first = issues[0]
  const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : ''
  throw new InvalidInputError({
    code: asset.code,
    path: asset.source,
    message: `Invalid ${asset.kind} ${asset.source}: ${first ? `${first.path}: ${first.message}` : 'no details'}${more}`,
    issues,
  })
}

/** Parses `value` with `schema` or throws an `InvalidInputError` naming every bad path. */
export function parseAsset<Schema extends z.ZodType>(schema: Schema, value: unknown, asset: AssetSource): z.output<Schema> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  invalidAsset(
    asset,
    result.error.issues.map((issue) => ({
      code: issue.code,
      path: issuePath(asset.source, issue.path),
      message: issue.message,
    })),
  )
}

/** Adds an issue for every category whose `category_id` an earlier one already has (refinement of both assets). */
export function refineUniqueCategoryIds(
  categories: readonly { category_id: string }[],
  context: { addIssue(issue: { code: 'custom'; path: PropertyKey[]; message: string }): void },
): void {
  const seen = new Map<string, number>()
  categories.forEach((category, index) => {
    const first = seen.get(category.category_id)
    if (first !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['categories', index, 'category_id'],
        message: `duplicate category_id "${category.category_id}" (first at categories.${first})`,
      })
    } else seen.set(category.category_id, index)
  })
}

/** The parser of one kind of asset; `source` (a file path or a label) defaults to the kind's name. */
export function assetParser<Schema extends z.ZodType>(schema: Schema, kind: string, code: ErrorCode) {
  return (value: unknown, source = kind): z.output<Schema> => parseAsset(schema, value, { kind, source, code })
}
