/**
 * @module envs/grading: the category corpus: per category its description, further descriptions and
 * examples, which the tools show. It must cover the leaf registry exactly (checked by the task).
 */
import { z } from 'zod'
import { type AssetSource, parseAsset, refineUniqueCategoryIds } from './parse-asset.js'

const trimmed = z.string().transform((value) => value.trim())
const textList = z
  .array(z.string())
  .nullish()
  .transform((values) => values ?? [])

const corpusCategorySchema = z.looseObject({
  category_id: trimmed.pipe(z.string().min(1, 'category_id must be a non-empty string')),
  name: trimmed.pipe(z.string().min(1, 'name must be a non-empty string')),
  description: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  descriptions: textList,
  path: z
    .array(trimmed)
    .nullish()
    .transform((parts) => parts ?? []),
  code: z
    .string()
    .nullish()
    .transform((value) => (value === undefined || value === null ? null : value.trim())),
  examples: textList,
})

export const categoryCorpusSchema = z
  .looseObject({
    dataset: z.string().optional(),
    source: z.string().optional(),
    id_strategy: z.string().optional(),
    categories: z.array(corpusCategorySchema),
  })
  .superRefine((corpus, context) => {
    refineUniqueCategoryIds(corpus.categories, context)
  })

export type CategoryCorpus = z.output<typeof categoryCorpusSchema>
export type CorpusCategory = CategoryCorpus['categories'][number]

/** Validates a parsed corpus JSON value. */
export function parseCategoryCorpus(value: unknown, source = 'category corpus'): CategoryCorpus {
  const asset: AssetSource = { kind: 'category corpus', source, code: 'invalid_corpus' }
  return parseAsset(categoryCorpusSchema, value, asset)
}
