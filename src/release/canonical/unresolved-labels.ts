/**
 * @module release/canonical: labelled records the line cannot resolve are reported loudly. A canonical
 * build that would lose labelled records stops (`unresolved_labels`) unless the caller accepts the loss
 * explicitly (`--allow-unresolved`); either way the counts per reason go to stderr and into the report.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'

/** Statuses of records that carry a real label the line failed to resolve (placeholder and unlabeled carry none). */
const lostLabelStatuses = ['missing_leaf', 'path_mismatch', 'code_unresolved', 'invalid_record'] as const

export interface LabelAccounting {
  /** Labelled records that resolve to no registry category. */
  lost: number
  lost_by_reason: Record<string, number>
  /** Records without a usable label (unlabeled, placeholder), counted but not lost. */
  unusable_by_reason: Record<string, number>
}

export function labelAccounting(statusCounts: Readonly<Record<string, number>>): LabelAccounting {
  const lost: Record<string, number> = {}
  const unusable: Record<string, number> = {}
  for (const [status, count] of Object.entries(statusCounts)) {
    if (status === 'resolved' || count === 0) continue
    if ((lostLabelStatuses as readonly string[]).includes(status)) lost[status] = count
    else unusable[status] = count
  }
  const total = Object.values(lost).reduce((sum, value) => sum + value, 0)
  return { lost: total, lost_by_reason: lost, unusable_by_reason: unusable }
}

const counts = (byReason: Record<string, number>) =>
  Object.entries(byReason)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ')

/** One stderr line per kind of unresolved record (none when everything resolved). */
export function unresolvedLines(dataset: string, accounting: LabelAccounting): string[] {
  const lines: string[] = []
  if (accounting.lost > 0)
    lines.push(
      `warning[unresolved_labels] ${dataset}: ${accounting.lost} labelled record(s) not resolved: ${counts(accounting.lost_by_reason)}`,
    )
  if (Object.keys(accounting.unusable_by_reason).length > 0)
    lines.push(`note[unusable_labels] ${dataset}: records without a usable label: ${counts(accounting.unusable_by_reason)}`)
  return lines
}

/** Throws `unresolved_labels` when labelled records would be lost and the caller did not accept it. */
export function checkLostLabels(options: {
  dataset: string
  accounting: LabelAccounting
  allow: boolean
  /** Up to a few unresolved records, for the error's issues. */
  examples: readonly { id: string; status: string; row: number | null; reason: string }[]
}): void {
  const { accounting } = options
  if (accounting.lost === 0 || options.allow) return
  throw new InvalidInputError({
    code: 'unresolved_labels',
    path: `${options.dataset}:resolution`,
    message: `${accounting.lost} labelled record(s) of ${options.dataset} resolve to no category (${counts(accounting.lost_by_reason)}); fix the labels, registry or corpus, or pass --allow-unresolved to publish without them.`,
    issues: [
      ...Object.entries(accounting.lost_by_reason).map(([reason, count]) => ({
        code: reason,
        path: `${options.dataset}:resolution.${reason}`,
        message: `${count} record(s)`,
      })),
      ...options.examples
        .filter((example) => (lostLabelStatuses as readonly string[]).includes(example.status))
        .slice(0, 20)
        .map((example) => ({
          code: example.status,
          path: `${options.dataset}:row ${example.row ?? '?'}`,
          message: example.reason,
        })),
    ],
  })
}
