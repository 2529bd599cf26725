/**
 * @module envs/releaseops/arena: what `difficulty` scales. Harder means more distractors (some with
 * risky-looking tags), less review budget, a shorter deadline, fewer evidence actions per phase, more
 * misleading claims (facts that break a rule more often), careful workers that miss more, and
 * revisions that repair less and break more. Every level keeps at least 24 hours, so one hold is
 * always possible and every episode stays winnable.
 */

export const difficulties = ['low', 'medium', 'high'] as const
export type Difficulty = (typeof difficulties)[number]

export interface DifficultyLevel {
  /** Harmless distractor proposals in phase 1 and in each later phase. */
  distractors: readonly [number, number]
  laterDistractors: readonly [number, number]
  /** How many distractors carry a risky-looking tag (payments, checkout, deploy). */
  decoys: readonly [number, number]
  budget: readonly [number, number]
  hours: readonly number[]
  evidencePerPhase: number
  /** Chance that a family's primary / secondary hazard breaks its rule (the share of misleading claims). */
  primaryBad: number
  secondaryBad: number
  /** Chance a careful worker misses a broken fact when asked. */
  carefulMiss: number
  fixScale: number
  breakScale: number
}

export const difficultyLevels: Readonly<Record<Difficulty, DifficultyLevel>> = {
  low: {
    distractors: [1, 2],
    laterDistractors: [0, 1],
    decoys: [0, 0],
    budget: [6, 8],
    hours: [36],
    evidencePerPhase: 3,
    primaryBad: 0.5,
    secondaryBad: 0.2,
    carefulMiss: 0,
    fixScale: 1,
    breakScale: 0.6,
  },
  medium: {
    distractors: [2, 3],
    laterDistractors: [1, 2],
    decoys: [0, 1],
    budget: [4, 6],
    hours: [24, 36],
    evidencePerPhase: 2,
    primaryBad: 0.6,
    secondaryBad: 0.3,
    carefulMiss: 0.1,
    fixScale: 0.85,
    breakScale: 1,
  },
  high: {
    distractors: [3, 4],
    laterDistractors: [1, 3],
    decoys: [1, 2],
    budget: [3, 5],
    hours: [24],
    evidencePerPhase: 1,
    primaryBad: 0.7,
    secondaryBad: 0.4,
    carefulMiss: 0.2,
    fixScale: 0.7,
    breakScale: 1.3,
  },
}
