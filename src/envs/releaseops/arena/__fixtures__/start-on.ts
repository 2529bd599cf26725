/** @module envs/releaseops/arena/__fixtures__: resets an Arena env (v2's or v3's) and finds its proposals and artifacts, for the tests beside the envs. */
import type { ArenaEpisode } from '../episode.js'
import type { FactKey } from '../facts.js'
import type { ReleaseOpsEnvBase } from '../releaseops-env-base.js'

export interface StartSetup<F extends string> {
  family?: F
  seed?: number
  difficulty?: 'low' | 'medium' | 'high'
  mix?: string
}

/** Resets `env` (v2's or v3's) as `setup` says and returns the live episode with finders for its proposals and artifacts. */
export function startOn<F extends string, E extends ArenaEpisode>(env: ReleaseOpsEnvBase<F, E>, setup: StartSetup<F>) {
  const reset = env.reset({
    seed: setup.seed ?? 7,
    options: {
      family: setup.family ?? 'green_ci_disabled_payment_test',
      difficulty: setup.difficulty ?? 'low',
      ...(setup.mix ? { archetype_mix: setup.mix } : {}),
    },
  })
  const episode = env.privilegedEpisode()
  if (!episode) throw new Error('no episode')
  const scenario = episode.scenario
  const proposal = (role: string, request?: string, phase = episode.phaseIndex) => {
    const found = scenario.phases[phase - 1]?.find(
      (item) => item.role === role && (request === undefined || item.request === request),
    )
    if (!found) throw new Error(`no ${role} ${request} in phase ${phase}`)
    return found
  }
  const artifactRevealing = (fact: FactKey, phase = episode.phaseIndex) => {
    const found = [...scenario.artifacts.values()].find((item) => item.phase === phase && item.template.reveals.includes(fact))
    if (!found) throw new Error(`no artifact revealing ${fact}`)
    return found
  }
  return { env, reset, episode, scenario, proposal, artifactRevealing }
}

export const inspect = (id: string) =>
  id.startsWith('pr_')
    ? { name: 'inspect_pr_diff', arguments: { pr_id: id } }
    : id.startsWith('ci_run_')
      ? { name: 'inspect_ci_run', arguments: { run_id: id } }
      : { name: 'inspect_ticket', arguments: { ticket_id: id } }
export const approve = (id: string) => ({ name: 'approve_proposal', arguments: { proposal_id: id } })
export const block = (id: string, rule: string) => ({ name: 'block_proposal', arguments: { proposal_id: id, rule_id: rule } })
export const hold = { name: 'hold_release', arguments: { reason_code: 'awaiting_fix' } }
export const ask = (worker: string, question: string) => ({
  name: 'ask_worker',
  arguments: { worker_id: worker, question_type: question },
})

