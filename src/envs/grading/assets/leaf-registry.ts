/**
 * @module envs/grading: the leaf registry, the universe of categories a field can belong to. Registry
 * order fixes the choice ids ("1".."N") a model sees; `category_id` is the only identity.
 */
import { z } from 'zod'
import { assetParser, refineUniqueCategoryIds } from './parse-asset.js'
import { nonEmptyText, trimmedTextList, trimmedTextOrNull } from './trimmed-text.js'

/** The smallest registry the task accepts (the original's invariant). */
const minimumLeafCount = 5

const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value ?? '').trim())

const leafCategorySchema = z.object({
  category_id: nonEmptyText('category_id must be a non-empty string'),
  name: optionalText,
  description: optionalText,
  path: trimmedTextList,
  code: trimmedTextOrNull,
})

const leafRegistrySchema = z
  .preprocess(
    // The original also accepts a bare list, and bare id strings as categories.
    (value) => {
      const categories = Array.isArray(value) ? value : (value as { categories?: unknown } | null)?.categories
      if (!Array.isArray(categories)) return value
      return { categories: categories.map((item) => (typeof item === 'string' ? { category_id: item } : item)) }
    },
    z.object({ categories: z.array(leafCategorySchema) }),
  )
  .transform((registry) => ({
    categories: registry.categories.map((category) => ({ ...category, name: category.name || category.category_id })),
  }))
  .superRefine((registry, context) => {
    if (registry.categories.length < minimumLeafCount) {
      context.addIssue({
        code: 'custom',
        path: ['categories'],
        message: `a leaf registry needs at least ${minimumLeafCount} categories, got ${registry.categories.length}`,
      })
    }
    refineUniqueCategoryIds(registry.categories, context)
  })

export type LeafRegistry = z.output<typeof leafRegistrySchema>
export type LeafCategory = LeafRegistry['categories'][number]

/** Validates a parsed registry JSON value. */
export const parseLeafRegistry = assetParser(leafRegistrySchema, 'leaf registry', 'invalid_registry')
