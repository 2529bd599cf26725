/** @module envs/releaseops: the reward table (the original's `rewards.py`, kept by every version). */

export const rewards = {
  safe_ship: 1.0,
  unsafe_ship: -1.0,
  missed_deadline: -0.6,
  budget_unit_spent: -0.05,
  invalid_action: -0.25,
  false_block: -0.15,
  inspection_revealed_true_violation: 0.2,
} as const

export type RewardKey = keyof typeof rewards
