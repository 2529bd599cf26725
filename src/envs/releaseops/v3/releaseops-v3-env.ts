/**
 * @module envs/releaseops/v3: `releaseops-v3`, the default Arena. v2's story, tools, phases, rule ids,
 * views and row format, with mechanics under which a supervisor who has not verified a fact cannot
 * profit from acting as if it had (`episode-v3.ts`), a new held-out evidence structure, and an
 * episode that ends without a ship decision scored as a missed deadline. See README.md beside this file.
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
import { pythonDumps } from '../../../core/json/python-json.js'
import { parseToolArguments, type ToolDefinition } from '../../../core/tools/define-tool.js'
import { rewards } from '../shared/rewards.js'
import { releaseOpsTools } from '../shared/tools.js'
import { archetypes } from '../v2/archetypes.js'
import type { OracleProof } from '../v2/build-scenario-v2.js'
import { difficulties } from '../v2/difficulty.js'
import type { ToolOutcome } from '../v2/episode-v2.js'
import { hiddenStateOf } from '../v2/hidden-state.js'
import { type ObservationViewV2, ViewBuilder } from '../v2/observation-view-v2.js'
import { renderIndented } from '../v2/releaseops-v2-env.js'
import { applyCallV3 } from './apply-call-v3.js'
import { type BuildScenarioV3Options, buildScenarioV3, type ProvenScenarioV3 } from './build-scenario-v3.js'
import { EpisodeV3 } from './episode-v3.js'
import { familiesV3, familySpecV3 } from './families/index.js'

export type ReleaseOpsV3Observation = {
  view: ObservationViewV2
  /** The tool this observation answers (absent after reset). */
  tool?: string
  result?: JsonObject
  error?: EnvError & JsonObject
}

const archetypePattern = archetypes.join('|')
const mixPattern = new RegExp(`^(${archetypePattern})__(${archetypePattern})__(${archetypePattern})$`)

export const resetOptionsV3 = z.object({
  family: z.enum(familiesV3).default('green_ci_disabled_payment_test'),
  difficulty: z.enum(difficulties).default('medium'),
  /** `author__reviewer__third`; defaults to the family's own mix. */
  archetype_mix: z
    .string()
    .regex(mixPattern, 'Expected author__reviewer__third, each one of careful, overconfident, shortcut, stale_policy, deadline.')
    .optional(),
  /** Consecutive free calls that change nothing (re-reads, repeated questions) before the episode is truncated. */
  no_progress_limit: z.number().int().min(1).max(64).default(6),
})
export type ResetOptionsV3 = z.input<typeof resetOptionsV3>

/** What an episode that ends without a ship decision scores: a missed deadline. */
export const unfinishedEpisodeRewardV3 = rewards.missed_deadline

export const releaseOpsV3Spec: EnvSpec = {
  id: 'releaseops-v3',
  description:
    'ReleaseOps Arena v3 (default): a supervisor gates a checkout release under a review budget, a deadline and three safety rules. Facts are hidden until evidence verifies them; a block counts only with evidence for the current candidate (otherwise it costs hours), revisions repair only what evidence reported, and an episode that ends without a ship decision scores as a missed deadline.',
  tools: releaseOpsTools,
  maxEpisodeSteps: 64,
  deterministic: true,
  invalidActionReward: rewards.invalid_action,
  defaultSeed: 42,
  unfinishedEpisodeReward: unfinishedEpisodeRewardV3,
}

const toolsByName = new Map<string, ToolDefinition>(releaseOpsTools.map((tool) => [tool.name, tool]))

export interface ReleaseOpsV3EnvOptions {
  /** Builds the scenario of each reset (tests inject counterfactual facts here; never a reset option). */
  buildScenario?: (options: BuildScenarioV3Options) => ProvenScenarioV3
}

export class ReleaseOpsV3Env implements Env<ReleaseOpsV3Observation> {
  readonly spec = releaseOpsV3Spec
  private readonly buildScenario: (options: BuildScenarioV3Options) => ProvenScenarioV3
  private episode: EpisodeV3 | undefined
  private views: ViewBuilder | undefined
  private proof: OracleProof | undefined
  private steps = 0
  private noProgressStreak = 0
  private noProgressLimit = 6
  private truncated = false

  constructor(options: ReleaseOpsV3EnvOptions = {}) {
    this.buildScenario = options.buildScenario ?? ((build) => buildScenarioV3(build))
  }

  reset(params: ResetParams = {}): ResetResult<ReleaseOpsV3Observation> {
    const { seed, options } = parseResetParams({ spec: this.spec, params, optionsSchema: resetOptionsV3 })
    const { scenario, oracle } = this.buildScenario({
      family: options.family,
      seed,
      difficulty: options.difficulty,
      archetypeMix: options.archetype_mix ?? familySpecV3(options.family).defaultMix,
    })
    this.episode = new EpisodeV3(scenario)
    this.views = new ViewBuilder(scenario)
    this.proof = oracle
    this.steps = 0
    this.noProgressStreak = 0
    this.noProgressLimit = options.no_progress_limit
    this.truncated = false
    return { observation: { view: this.views.view(this.episode) }, info: this.info() }
  }

  step(call: ToolCall): StepResult<ReleaseOpsV3Observation> {
    const episode = this.episode
    if (!episode) throw new ResetNeededError()
    if (episode.done || this.truncated) {
      const view = (this.views as ViewBuilder).view(episode)
      // After the end: a coded error, no reward, no state change.
      const error = { code: 'episode_terminal', message: 'Episode is over; reset to start another.' }
      return {
        observation: { view, tool: String(call?.name), error },
        reward: 0,
        terminated: episode.done,
        truncated: this.truncated,
        info: this.info(),
      }
    }
    this.steps++
    episode.stepReward = 0
    const outcome = this.dispatch(episode, call)
    const view = (this.views as ViewBuilder).view(episode)
    const observation: ReleaseOpsV3Observation = { view, tool: String(call?.name) }
    if ('error' in outcome) {
      episode.invalidAction()
      observation.error = outcome.error
    } else {
      observation.result =
        outcome.phaseAdvanced && !episode.done ? { ...outcome.result, updated_observation: view } : outcome.result
      this.noProgressStreak = outcome.changed ? 0 : this.noProgressStreak + 1
    }
    let truncatedReason: string | undefined
    if (!episode.done && this.noProgressStreak >= this.noProgressLimit) truncatedReason = 'no_progress'
    else if (!episode.done && this.steps >= this.spec.maxEpisodeSteps) truncatedReason = 'step_limit'
    if (truncatedReason) {
      this.truncated = true
      episode.addReward(unfinishedEpisodeRewardV3)
    }
    const info = this.info()
    if (truncatedReason) info.truncated_reason = truncatedReason
    return { observation, reward: episode.stepReward, terminated: episode.done, truncated: this.truncated, info }
  }

  private dispatch(episode: EpisodeV3, call: ToolCall): ToolOutcome {
    const tool = typeof call?.name === 'string' ? toolsByName.get(call.name) : undefined
    if (!tool) return { error: { code: 'unknown_tool', message: `Unknown tool: ${String(call?.name)}` } }
    const parsed = parseToolArguments(tool, call.arguments)
    if (!parsed.success) return { error: parsed.error }
    return applyCallV3(episode, tool.name, parsed.data as Record<string, string>)
  }

  render(observation: ReleaseOpsV3Observation): string {
    if (observation.error) return pythonDumps({ error: { code: observation.error.code, message: observation.error.message } })
    if (observation.result === undefined) return renderIndented(observation.view)
    return observation.result.updated_observation === undefined
      ? pythonDumps(observation.result)
      : renderIndented(observation.result)
  }

  /** The episode's score so far: the running total, plus the missed-deadline charge while it has not ended. */
  private score(): number {
    const episode = this.episode as EpisodeV3
    return episode.done || this.truncated ? episode.reward : episode.reward + unfinishedEpisodeRewardV3
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
      archetype_mix: scenario.archetypeMix,
      step_count: this.steps,
      done: episode.done,
      truncated: this.truncated,
      terminal_reason: episode.terminalReason,
      cumulative_reward: this.score(),
      running_reward: episode.reward,
      metrics: { ...episode.metrics },
      observation: (this.views as ViewBuilder).view(episode),
    }
  }

  /** The hidden truth and the oracle's proof (debugging, tests and privileged policies only; never shown to a policy). */
  hiddenState(): JsonObject {
    if (!this.episode || !this.proof) return {}
    return hiddenStateOf(this.episode, this.proof)
  }

  /** The live episode, for the oracle (privileged). */
  privilegedEpisode(): EpisodeV3 | undefined {
    return this.episode
  }

  private info(): EpisodeInfo {
    const episode = this.episode as EpisodeV3
    return {
      cumulative_reward: this.score(),
      step_count: this.steps,
      terminal_reason: episode.terminalReason,
      metrics: { ...episode.metrics },
      budget_spent: episode.initialBudget - episode.budget,
    }
  }
}
