/**
 * @module release/rl: an RL release against the canonical records it was exported from (`rl validate
 * --canonical`): every row's source is a resolved record of that split with the same category and level,
 * and every record of a split is in the release (none lost, none added).
 */
import type { CanonicalRecord } from '../contracts/canonical-record.js'

const maxListed = 50

export function rlCanonicalErrors(options: {
  rows: Readonly<Record<string, readonly Record<string, unknown>[]>>
  records: readonly CanonicalRecord[]
  levelField: string
}): string[] {
  const errors: string[] = []
  const byId = new Map(options.records.map((record) => [record.id, record]))
  let count = 0
  const fail = (message: string) => {
    if (count++ < maxListed) errors.push(message)
  }
  for (const [split, rows] of Object.entries(options.rows)) {
    const seen = new Set<string>()
    for (const [index, row] of rows.entries()) {
      const extra = (row.extra_info ?? {}) as Record<string, unknown>
      const id = String(extra.source_id)
      seen.add(id)
      const record = byId.get(id)
      if (!record) {
        fail(`${split} row ${index}: source ${id} is not a canonical record`)
        continue
      }
      if (record.split !== split) {
        fail(`${split} row ${index}: source ${id} is in split ${record.split} of the canonical records`)
        continue
      }
      const truth = (row.reward_model as { ground_truth?: unknown } | null)?.ground_truth
      if (truth !== record.target?.category_id)
        fail(`${split} row ${index}: ground truth ${String(truth)} is not the record's category ${record.target?.category_id}`)
      const level = (record as Record<string, unknown>)[options.levelField]
      if (extra.ground_truth_level !== level)
        fail(`${split} row ${index}: level ${String(extra.ground_truth_level)} is not the record's ${String(level)}`)
    }
    const missing = options.records.filter((record) => record.split === split && !seen.has(record.id))
    if (missing.length > 0)
      fail(`${split}: ${missing.length} canonical record(s) of this split are not in the release (first ${missing[0]?.id})`)
  }
  if (count > maxListed) errors.push(`… ${count - maxListed} more`)
  return errors
}
