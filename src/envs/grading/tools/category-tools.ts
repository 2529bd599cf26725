/**
 * @module envs/grading: the four category tools, declared once for SFT and RL. The zod schemas are the
 * single source of truth for argument types, validation and the JSON Schemas a model is given.
 */
import { z } from 'zod'
import { defineTool } from '../../../core/tools/define-tool.js'

/** `search_categories` always returns this many candidates (the original fixes top_k). */
export const searchTopK = 5
/** At most this many ids per details/examples call. */
export const maxChoiceIds = 5
/** `get_category_examples` limit bounds. */
export const maxExampleLimit = 5

const choiceIds = z
  .array(z.string())
  .min(1)
  .max(maxChoiceIds)
  .describe('Opaque choice ids from the catalog or from earlier tool results, such as "3". One to five, unique.')

const searchCategoriesTool = defineTool({
  name: 'search_categories',
  description:
    'Lexical search of the category catalog by field and table name. Returns the five best candidates with choice_id, name and a short summary. Use it as a fallback hint when the catalog alone is not enough.',
  inputSchema: z.strictObject({
    field_name: z.string().describe('The field name exactly as given in the field metadata.'),
    table_name: z.string().describe('The table name exactly as given in the field metadata.'),
    top_k: z.number().int().default(searchTopK).describe('Number of candidates; fixed at 5.'),
    scope: z
      .string()
      .optional()
      .describe('Optional scope_key from browse_categories; restricts the search to that top-level group.'),
  }),
})

const getCategoryDetailsTool = defineTool({
  name: 'get_category_details',
  description: 'Definitions of candidate categories: name, description and further descriptions, in the order asked.',
  inputSchema: z.strictObject({ choice_ids: choiceIds }),
})

const getCategoryExamplesTool = defineTool({
  name: 'get_category_examples',
  description: 'Example data items of candidate categories, at most `limit` per category, in the order asked.',
  inputSchema: z.strictObject({
    choice_ids: choiceIds,
    limit: z.number().int().default(2).describe('Examples per category, 1 to 5.'),
  }),
})

const browseCategoriesTool = defineTool({
  name: 'browse_categories',
  description: 'The top-level groups of the catalog (scope_key and number of categories), for a scoped search.',
  inputSchema: z.strictObject({}),
})

export const categoryTools = [searchCategoriesTool, getCategoryDetailsTool, getCategoryExamplesTool, browseCategoriesTool]

export type SearchCategoriesArguments = z.output<typeof searchCategoriesTool.inputSchema>
export type GetCategoryDetailsArguments = z.output<typeof getCategoryDetailsTool.inputSchema>
export type GetCategoryExamplesArguments = z.output<typeof getCategoryExamplesTool.inputSchema>
