/**
 * @module train/smoke: what a training smoke run must show, checked from evidence the trainer cannot fake:
 * the env server's own counters (every rollout reset the env, tools were called through the server,
 * the rewards the trainer logged are the episodes' cumulative rewards on the server) and the logged
 * history (tool calls, non-zero loss and grad norm, the env's reward column), plus a written checkpoint.
 */
import type { LogRow } from '../log-history.js'
import type { RolloutLine, ServerCounters } from './smoke-replies.js'

export type { RolloutLine, ServerCounters } from './smoke-replies.js'

export interface SmokeCheck {
  name: string
  ok: boolean
  detail: string
}

export interface SmokeEvidence {
  envId: string
  state: string
  exitCode: number | null
  rows: readonly LogRow[]
  rollouts: readonly RolloutLine[]
  counters: ServerCounters
  /** Files of the run folder, relative to it. */
  files: readonly string[]
  /** The reward column TRL logs for the env's own reward. */
  rewardColumn?: string
}

const positive = (row: LogRow, key: string) => typeof row[key] === 'number' && (row[key] as number) > 0
const nonZero = (row: LogRow, key: string) => typeof row[key] === 'number' && row[key] !== 0 && Number.isFinite(row[key])

function episodeKey(seed: number | null | undefined, family: string | null | undefined, reward: number): string {
  return `${seed ?? '-'}|${family ?? '-'}|${reward.toFixed(9)}`
}

const check = (name: string, ok: boolean, detail: string): SmokeCheck => ({ name, ok, detail })

/** What the trainer's log shows: a clean exit, steps with tool calls, non-zero loss and grad norm, the env's reward only. */
export function trainerLogChecks(evidence: SmokeEvidence, steps: readonly LogRow[], rewardColumn: string): SmokeCheck[] {
  const otherRewards = Object.keys(steps[0] ?? {}).filter(
    (key) => key.startsWith('rewards/') && key.endsWith('/mean') && key !== rewardColumn,
  )
  return [
    check(
      'trainer exited cleanly',
      evidence.state === 'succeeded' && evidence.exitCode === 0,
      `state ${evidence.state}, exit code ${evidence.exitCode}`,
    ),
    check('at least 2 optimisation steps logged', steps.length >= 2, `${steps.length} step rows`),
    check(
      'tools/call_frequency > 0',
      steps.some((row) => positive(row, 'tools/call_frequency')),
      `per step: ${steps.map((row) => row['tools/call_frequency']).join(', ')}`,
    ),
    check(
      'loss non-zero',
      steps.some((row) => nonZero(row, 'loss')),
      `per step: ${steps.map((row) => row.loss).join(', ')}`,
    ),
    check(
      'grad_norm non-zero',
      steps.some((row) => nonZero(row, 'grad_norm')),
      `per step: ${steps.map((row) => row.grad_norm).join(', ')}`,
    ),
    check(
      'reward is the env’s own (get_reward), no other reward function',
      steps.length > 0 && steps.every((row) => typeof row[rewardColumn] === 'number') && otherRewards.length === 0,
      `${rewardColumn} logged on every step; other reward columns: ${otherRewards.join(', ') || 'none'}`,
    ),
  ]
}

/** How many rollouts match a distinct server episode of the env by seed, family and cumulative reward. */
export function matchedRollouts(
  rollouts: readonly RolloutLine[],
  episodes: ServerCounters['recent_episodes'],
  envId: string,
): number {
  const serverEpisodes = new Map<string, number>()
  for (const episode of episodes.filter((item) => item.env_id === envId)) {
    const key = episodeKey(episode.seed, episode.family, episode.cumulative_reward)
    serverEpisodes.set(key, (serverEpisodes.get(key) ?? 0) + 1)
  }
  let matched = 0
  for (const line of rollouts) {
    const key = episodeKey(line.seed, line.family, line.reward)
    const left = serverEpisodes.get(key) ?? 0
    if (left > 0) {
      serverEpisodes.set(key, left - 1)
      matched++
    }
  }
  return matched
}

/** What the env server's counters show: a reset per rollout, the tool calls, each rollout's reward an episode's. */
function serverChecks(evidence: SmokeEvidence): SmokeCheck[] {
  const { rollouts } = evidence
  const env = evidence.counters.envs[evidence.envId]
  const clientCalls = rollouts.reduce((sum, line) => sum + line.tool_calls, 0)
  const matched = matchedRollouts(rollouts, evidence.counters.recent_episodes, evidence.envId)
  return [
    check('rollouts recorded', rollouts.length > 0, `${rollouts.length} rollouts`),
    check(
      'every rollout reset the env on the server',
      env !== undefined && env.resets === rollouts.length && rollouts.length > 0,
      `server resets ${env?.resets ?? 0}, trainer rollouts ${rollouts.length}`,
    ),
    check(
      'tools were called through the server',
      env !== undefined && env.tool_calls_total > 0 && env.tool_calls_total === clientCalls,
      `server tool calls ${env?.tool_calls_total ?? 0} (${JSON.stringify(env?.tool_calls ?? {})}), trainer-side ${clientCalls}`,
    ),
    check(
      'every rollout reward is an episode reward on the server',
      rollouts.length > 0 && matched === rollouts.length,
      `${matched}/${rollouts.length} rollouts match a server episode (seed, family, cumulative reward)`,
    ),
  ]
}

/** The mean reward the trainer logged against the rollouts' own mean. */
function meanRewardCheck(rollouts: readonly RolloutLine[], steps: readonly LogRow[], rewardColumn: string): SmokeCheck {
  const meanRollout = rollouts.reduce((sum, line) => sum + line.reward, 0) / Math.max(1, rollouts.length)
  const logged = steps.map((row) => row[rewardColumn]).filter((value): value is number => typeof value === 'number')
  const meanLogged = logged.reduce((sum, value) => sum + value, 0) / Math.max(1, logged.length)
  return check(
    'logged mean reward equals the rollouts’ mean',
    logged.length > 0 && Math.abs(meanRollout - meanLogged) < 1e-5,
    `rollouts ${meanRollout.toFixed(6)}, logged ${meanLogged.toFixed(6)}`,
  )
}

/** Final weights and both best-checkpoint records in the run folder. */
export function checkpointCheck(files: readonly string[]): SmokeCheck {
  const weights = files.some((file) => /^final\/(model\.safetensors|pytorch_model\.bin)$/.test(file))
  const best = files.includes('best_by_reward/best_info.json')
  const bestLoss = files.includes('best_by_loss/best_info.json')
  return check(
    'checkpoint written',
    weights && best && bestLoss,
    `final weights ${weights ? 'yes' : 'no'}, best_by_reward ${best ? 'yes' : 'no'}, best_by_loss ${bestLoss ? 'yes' : 'no'}`,
  )
}

export function checkSmokeRun(evidence: SmokeEvidence): SmokeCheck[] {
  const steps = evidence.rows.filter((row) => typeof row.loss === 'number' && !('train_runtime' in row))
  const rewardColumn = evidence.rewardColumn ?? 'rewards/ReleaseOpsEnv/mean'
  return [
    ...trainerLogChecks(evidence, steps, rewardColumn),
    ...serverChecks(evidence),
    meanRewardCheck(evidence.rollouts, steps, rewardColumn),
    checkpointCheck(evidence.files),
  ]
}
