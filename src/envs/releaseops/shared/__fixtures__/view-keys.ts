/** The keys of the Arena's observation view, in the original's order (v1 and v2 keep them). */
export const arenaViewKeys = [
  'phase',
  'phase_index',
  'hours_to_deadline',
  'review_budget_remaining',
  'evidence_actions_remaining',
  'release',
  'release_checks',
  'rules',
  'proposals',
  'worker_stats',
]
