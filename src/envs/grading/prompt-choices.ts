/**
 * @module envs/grading: the prompt-facing view of a registry. A model sees choice ids "1".."N" (registry
 * order) and display names (the leaf name, or the shortest unique path suffix when names repeat);
 * canonical category ids never reach a prompt and are decoded back at the boundary.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { LeafCategory, LeafRegistry } from './assets/leaf-registry.js'

export interface PromptChoice {
  choiceId: string
  categoryId: string
  displayName: string
}

function pathParts(category: LeafCategory): string[] {
  const parts = [...category.path]
  if (parts.length === 0 || parts.at(-1) !== category.name) parts.push(category.name)
  return parts
}

function displayNames(registry: LeafRegistry): string[] {
  const counts = new Map<string, number>()
  for (const category of registry.categories) counts.set(category.name, (counts.get(category.name) ?? 0) + 1)
  const parts = registry.categories.map(pathParts)
  const names = registry.categories.map((category, index) => {
    if (counts.get(category.name) === 1) return category.name
    const path = parts[index] as string[]
    for (let depth = 1; depth <= path.length; depth++) {
      const candidate = path.slice(-depth).join(' / ')
      const clash = parts.some((other, otherIndex) => otherIndex !== index && other.slice(-depth).join(' / ') === candidate)
      if (!clash) return candidate
    }
    throw new InvalidInputError({
      code: 'ambiguous_display_name',
      message: `Cannot build a unique display name for leaf "${category.name}" (category_id ${category.category_id}): its path does not tell it apart from another leaf.`,
      issues: [
        {
          code: 'ambiguous_display_name',
          path: `categories.${index}`,
          message: `duplicate leaf name "${category.name}" with an indistinguishable path`,
        },
      ],
    })
  })
  const seen = new Set<string>()
  names.forEach((name, index) => {
    if (seen.has(name)) {
      throw new InvalidInputError({
        code: 'ambiguous_display_name',
        message: `Display name "${name}" is not unique across the registry.`,
        issues: [{ code: 'ambiguous_display_name', path: `categories.${index}`, message: `display name "${name}" repeats` }],
      })
    }
    seen.add(name)
  })
  return names
}

export class PromptChoices {
  readonly choices: readonly PromptChoice[]
  private readonly byChoiceId = new Map<string, PromptChoice>()
  private readonly byCategoryId = new Map<string, PromptChoice>()

  constructor(registry: LeafRegistry) {
    const names = displayNames(registry)
    this.choices = registry.categories.map((category, index) => ({
      choiceId: String(index + 1),
      categoryId: category.category_id,
      displayName: names[index] as string,
    }))
    for (const choice of this.choices) {
      this.byChoiceId.set(choice.choiceId, choice)
      this.byCategoryId.set(choice.categoryId, choice)
    }
  }

  hasChoiceId(choiceId: string): boolean {
    return this.byChoiceId.has(choiceId)
  }

  hasCategoryId(categoryId: string): boolean {
    return this.byCategoryId.has(categoryId)
  }

  /** The choice for a choice id; throws on an unknown id (callers validate first). */
  byChoice(choiceId: string): PromptChoice {
    const choice = this.byChoiceId.get(choiceId)
    if (!choice) throw new RangeError(`choice id "${choiceId}" is not in the catalog`)
    return choice
  }

  /** The choice for a canonical category id; throws on an unknown id (callers validate first). */
  byCategory(categoryId: string): PromptChoice {
    const choice = this.byCategoryId.get(categoryId)
    if (!choice) throw new RangeError(`category_id "${categoryId}" has no prompt choice`)
    return choice
  }
}
