/**
 * @module envs/releaseops/v1: `releaseops-v1`, the original ReleaseOps Arena reproduced bit for bit,
 * quirks included (cumulative reward, penalty after the end, first match on duplicate ids).
 */
import { z } from 'zod'
import type {
  Env,
  EnvError,
  EnvSpec,
  EpisodeInfo,
  ResetParams,
  ResetResult,
  StepResult,
  ToolCall,
} from '../../../core/env/env-api.js'
import { parseResetParams } from '../../../core/env/parse-reset-params.js'
import { ResetNeededError } from '../../../core/errors/reset-needed-error.js'
import type { JsonObject } from '../../../core/json/json-value.js'
import { pythonDumps, pythonDumpsIndent2 } from '../../../core/python/python-json.js'
import { PythonRandom } from '../../../core/python/python-random.js'
import { parseToolArguments, type ToolDefinition } from '../../../core/tools/define-tool.js'
import { rewards } from '../shared/rewards.js'
import { releaseOpsTools } from '../shared/tools.js'
import { buildScenario } from './build-scenario.js'
import { EpisodeV1, type ToolOutcome } from './episode.js'
import { copyWorkerStats, type ObservationViewV1, observationView } from './observation-view.js'
import { familiesV1 } from './scenario.js'

export type ReleaseOpsV1Observation = {
  /** The original's `render_observation` object. */
  view: ObservationViewV1
  /** The tool this observation answers (absent after reset). */
  tool?: string
  /** The tool's result object; its text is what the original tool returned. */
  result?: JsonObject
  error?: EnvError & JsonObject
}

const resetOptionsV1 = z.object({
  family: z.enum(familiesV1).default('green_ci_disabled_payment_test'),
  difficulty: z.string().default('medium'),
  archetype_mix: z.string().default('shortcut_ci__careful_qa'),
})
export type ResetOptionsV1 = z.input<typeof resetOptionsV1>

export const releaseOpsV1Spec: EnvSpec = {
  id: 'releaseops-v1',
  description:
    'ReleaseOps Arena v1: the original environment reproduced exactly. A supervisor inspects evidence, asks workers, approves, blocks or holds release proposals under a review budget and three safety rules. Kept for reproducing published tables; train on releaseops-v3 (the default).',
  tools: releaseOpsTools,
  maxEpisodeSteps: 64,
  deterministic: true,
  invalidActionReward: rewards.invalid_action,
  defaultSeed: 42,
}

type Handler = (episode: EpisodeV1, args: Record<string, string>) => ToolOutcome

const handlers: Record<string, Handler> = {
  inspect_pr_diff: (episode, args) => episode.inspect('inspect_pr_diff', args.pr_id as string),
  inspect_ci_run: (episode, args) => episode.inspect('inspect_ci_run', args.run_id as string),
  inspect_ticket: (episode, args) => episode.inspect('inspect_ticket', args.ticket_id as string),
  ask_worker: (episode, args) => episode.askWorker(args.worker_id as string, args.question_type as never),
  approve_proposal: (episode, args) => episode.approve(args.proposal_id as string),
  block_proposal: (episode, args) => episode.block(args.proposal_id as string, args.rule_id as string),
  hold_release: (episode, args) => episode.hold(args.reason_code as never),
}

const toolsByName = new Map<string, ToolDefinition>(releaseOpsTools.map((tool) => [tool.name, tool]))

export class ReleaseOpsV1Env implements Env<ReleaseOpsV1Observation> {
  readonly spec = releaseOpsV1Spec
  private episode: EpisodeV1 | undefined
  private steps = 0
  private workerStats: ObservationViewV1['worker_stats'] = []
  private readonly rng = new PythonRandom(0)

  reset(params: ResetParams = {}): ResetResult<ReleaseOpsV1Observation> {
    const { seed, options: resetOptions } = parseResetParams({ spec: this.spec, params, optionsSchema: resetOptionsV1 })
    const scenario = buildScenario({
      family: resetOptions.family,
      seed,
      difficulty: resetOptions.difficulty,
      archetypeMix: resetOptions.archetype_mix,
      rng: this.rng,
    })
    this.episode = new EpisodeV1(scenario)
    this.steps = 0
    // Worker stats never change within a v1 episode: build them once, frozen, shared by every view.
    this.workerStats = freezeWorkerStats(copyWorkerStats(scenario.worker_stats))
    return { observation: { view: this.view() }, info: this.info() }
  }

  step(call: ToolCall): StepResult<ReleaseOpsV1Observation> {
    const episode = this.episode
    if (!episode) throw new ResetNeededError()
    this.steps++
    episode.stepReward = 0
    const outcome = this.dispatch(episode, call)
    const observation: ReleaseOpsV1Observation = { view: this.view(), tool: String(call.name) }
    if ('error' in outcome) {
      episode.invalidAction()
      observation.error = outcome.error
    } else {
      observation.result = outcome.result
    }
    return {
      observation,
      reward: episode.stepReward,
      terminated: episode.done,
      truncated: false,
      info: this.info(),
    }
  }

  private dispatch(episode: EpisodeV1, call: ToolCall): ToolOutcome {
    const tool = typeof call?.name === 'string' ? toolsByName.get(call.name) : undefined
    if (!tool) return { error: { code: 'unknown_tool', message: `Unknown tool: ${String(call?.name)}` } }
    if (episode.done) return { error: { code: 'episode_terminal', message: 'Episode is already terminal.' } }
    const parsed = parseToolArguments(tool, call.arguments)
    if (!parsed.success) return { error: parsed.error }
    return (handlers[tool.name] as Handler)(episode, parsed.data as Record<string, string>)
  }

  render(observation: ReleaseOpsV1Observation): string {
    if (observation.error) return pythonDumps({ error: { code: observation.error.code, message: observation.error.message } })
    if (observation.result === undefined) return renderView(observation.view)
    return observation.tool === 'hold_release' ? pythonDumpsIndent2(observation.result) : pythonDumps(observation.result)
  }

  state(): JsonObject {
    const episode = this.episode
    if (!episode) return {}
    const scenario = episode.scenario
    return {
      env_id: this.spec.id,
      family: scenario.family,
      seed: scenario.seed,
      difficulty: scenario.difficulty,
      archetype_mix: scenario.archetype_mix,
      step_count: this.steps,
      done: episode.done,
      terminal_reason: scenario.terminal_reason,
      cumulative_reward: episode.reward,
      metrics: { ...episode.metrics },
      observation: this.view(),
    }
  }

  /** The whole scenario, hidden fields included (debugging and privileged policies only). */
  hiddenState(): JsonObject {
    return structuredClone(this.episode?.scenario ?? {}) as unknown as JsonObject
  }

  private view(): ObservationViewV1 {
    return observationView((this.episode as EpisodeV1).scenario, this.workerStats)
  }

  private info(): EpisodeInfo {
    const episode = this.episode as EpisodeV1
    return {
      cumulative_reward: episode.reward,
      step_count: this.steps,
      terminal_reason: episode.scenario.terminal_reason,
      metrics: { ...episode.metrics },
      budget_spent: episode.initialBudget - episode.scenario.review_budget_remaining,
    }
  }
}

/**
 * The original's `json.dumps(obs, indent=2)`. A v1 view holds only strings, ints and booleans, for
 * which V8's JSON.stringify with indent 2 writes Python's bytes exactly once non-ASCII is escaped;
 * it is ~1.5x faster than the general Python-compatible writer on this hot path.
 */
export function renderView(view: ObservationViewV1): string {
  const text = JSON.stringify(view, null, 2)
  return /[\u007f-\uffff]/.test(text) ? pythonDumpsIndent2(view) : text
}

function freezeWorkerStats(stats: ObservationViewV1['worker_stats']): ObservationViewV1['worker_stats'] {
  for (const stat of stats) Object.freeze(Object.freeze(stat.recent) && stat)
  return Object.freeze(stats) as ObservationViewV1['worker_stats']
}
