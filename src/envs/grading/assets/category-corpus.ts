/**
 * @module envs/grading: the category corpus: per category its description, further descriptions and
 * examples, which the tools show. It must cover the leaf registry exactly (checked by the task).
 */
import { z } from 'zod'
import { assetParser, refineUniqueCategoryIds } from './parse-asset.js'
import { nonEmptyText, trimmedTextList, trimmedTextOrNull } from './trimmed-text.js'

const textList = z
  .array(z.string())
  .nullish()
  .transform((values) => values ?? [])

const corpusCategorySchema = z.looseObject({
  category_id: nonEmptyText('category_id must be a non-empty string'),
  name: nonEmptyText('name must be a non-empty string'),
  description: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  descriptions: textList,
  path: trimmedTextList,
  code: trimmedTextOrNull,
  examples: textList,
})

const categoryCorpusSchema = z
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
export const parseCategoryCorpus = assetParser(categoryCorpusSchema, 'category corpus', 'invalid_corpus')
