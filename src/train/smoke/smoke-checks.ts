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

export function checkSmokeRun(evidence: SmokeEvidence): SmokeCheck[] {
  const checks: SmokeCheck[] = []
  const add = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail })
  const steps = evidence.rows.filter((row) => typeof row.loss === 'number' && !('train_runtime' in row))
  const env = evidence.counters.envs[evidence.envId]
  const rewardColumn = evidence.rewardColumn ?? 'rewards/ReleaseOpsEnv/mean'

  add(
    'trainer exited cleanly',
    evidence.state === 'succeeded' && evidence.exitCode === 0,
    `state ${evidence.state}, exit code ${evidence.exitCode}`,
  )
  add('at least 2 optimisation steps logged', steps.length >= 2, `${steps.length} step rows`)
  add(
    'tools/call_frequency > 0',
    steps.some((row) => positive(row, 'tools/call_frequency')),
    `per step: ${steps.map((row) => row['tools/call_frequency']).join(', ')}`,
  )
  add(
    'loss non-zero',
    steps.some((row) => nonZero(row, 'loss')),
    `per step: ${steps.map((row) => row.loss).join(', ')}`,
  )
  add(
    'grad_norm non-zero',
    steps.some((row) => nonZero(row, 'grad_norm')),
    `per step: ${steps.map((row) => row.grad_norm).join(', ')}`,
  )
  const otherRewards = Object.keys(steps[0] ?? {}).filter(
    (key) => key.startsWith('rewards/') && key.endsWith('/mean') && key !== rewardColumn,
  )
  add(
    'reward is the env’s own (get_reward), no other reward function',
    steps.length > 0 && steps.every((row) => typeof row[rewardColumn] === 'number') && otherRewards.length === 0,
    `${rewardColumn} logged on every step; other reward columns: ${otherRewards.join(', ') || 'none'}`,
  )
  const rollouts = evidence.rollouts
  add('rollouts recorded', rollouts.length > 0, `${rollouts.length} rollouts`)
  add(
    'every rollout reset the env on the server',
    env !== undefined && env.resets === rollouts.length && rollouts.length > 0,
    `server resets ${env?.resets ?? 0}, trainer rollouts ${rollouts.length}`,
  )
  const clientCalls = rollouts.reduce((sum, line) => sum + line.tool_calls, 0)
  add(
    'tools were called through the server',
    env !== undefined && env.tool_calls_total > 0 && env.tool_calls_total === clientCalls,
    `server tool calls ${env?.tool_calls_total ?? 0} (${JSON.stringify(env?.tool_calls ?? {})}), trainer-side ${clientCalls}`,
  )
  const serverEpisodes = new Map<string, number>()
  for (const episode of evidence.counters.recent_episodes.filter((item) => item.env_id === evidence.envId)) {
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
  add(
    'every rollout reward is an episode reward on the server',
    rollouts.length > 0 && matched === rollouts.length,
    `${matched}/${rollouts.length} rollouts match a server episode (seed, family, cumulative reward)`,
  )
  const meanRollout = rollouts.reduce((sum, line) => sum + line.reward, 0) / Math.max(1, rollouts.length)
  const logged = steps.map((row) => row[rewardColumn]).filter((value): value is number => typeof value === 'number')
  const meanLogged = logged.reduce((sum, value) => sum + value, 0) / Math.max(1, logged.length)
  add(
    'logged mean reward equals the rollouts’ mean',
    logged.length > 0 && Math.abs(meanRollout - meanLogged) < 1e-5,
    `rollouts ${meanRollout.toFixed(6)}, logged ${meanLogged.toFixed(6)}`,
  )
  const weights = evidence.files.some((file) => /^final\/(model\.safetensors|pytorch_model\.bin)$/.test(file))
  const best = evidence.files.includes('best_by_reward/best_info.json')
  const bestLoss = evidence.files.includes('best_by_loss/best_info.json')
  add(
    'checkpoint written',
    weights && best && bestLoss,
    `final weights ${weights ? 'yes' : 'no'}, best_by_reward ${best ? 'yes' : 'no'}, best_by_loss ${bestLoss ? 'yes' : 'no'}`,
  )
  return checks
}
