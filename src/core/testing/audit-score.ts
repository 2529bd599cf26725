/** @module core/testing: how the exploit audit scores a list of episode rewards: the mean and a Wilson 95% interval. */

export interface SliceScore {
  episodes: number
  avg_reward: number
  ci95: [number, number]
}

const z95 = 1.959963984540054

/**
 * A Wilson 95% interval for a mean of bounded rewards: the mean is rescaled to [0, 1] by the range
 * the rewards took, treated as a rate of `count` trials, and the bounds mapped back. For ±1 outcomes
 * (ship safe or unsafe) it is exactly the Wilson interval of the safe-ship rate.
 */
export function wilsonMeanInterval(mean: number, count: number, range: readonly [number, number]): [number, number] {
  const [low, high] = range
  if (count <= 0 || high <= low) return [mean, mean]
  const p = Math.min(1, Math.max(0, (mean - low) / (high - low)))
  const z2 = z95 * z95
  const denominator = 1 + z2 / count
  const center = (p + z2 / (2 * count)) / denominator
  const half = (z95 * Math.sqrt((p * (1 - p)) / count + z2 / (4 * count * count))) / denominator
  const scale = (value: number) => low + Math.min(1, Math.max(0, value)) * (high - low)
  return [scale(center - half), scale(center + half)]
}

export const round3 = (value: number) => Math.round(value * 1000) / 1000

export function summariseRewards(rewards: readonly number[]): SliceScore {
  const avg = rewards.length === 0 ? 0 : rewards.reduce((total, reward) => total + reward, 0) / rewards.length
  const [low, high] = wilsonMeanInterval(avg, rewards.length, [Math.min(...rewards), Math.max(...rewards)])
  return { episodes: rewards.length, avg_reward: round3(avg), ci95: [round3(low), round3(high)] }
}
