/**
 * @module envs/releaseops/v2: `releaseops-v2`, the Arena worth training on. Same story, tools, phases,
 * rules and reward table as v1, with the ground truth hidden until evidence shows it, archetypes that
 * behave, revisions that may not fix anything, unique ids, per-step rewards and every episode proven
 * winnable. See README.md beside this file.
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
import { pythonDumps, pythonDumpsIndent2 } from '../../../core/json/python-json.js'
import { parseToolArguments, type ToolDefinition } from '../../../core/tools/define-tool.js'
import { rewards } from '../shared/rewards.js'
import { releaseOpsTools } from '../shared/tools.js'
import { applyCall } from './apply-call.js'
import { archetypes } from './archetypes.js'
import { type BuildScenarioV2Options, buildScenarioV2, type OracleProof, type ProvenScenario } from './build-scenario-v2.js'
import { difficulties } from './difficulty.js'
import { EpisodeV2, type ToolOutcome } from './episode-v2.js'
import { familiesV2, familySpec } from './families/index.js'
import { hiddenStateOf } from './hidden-state.js'
import { type ObservationViewV2, ViewBuilder } from './observation-view-v2.js'

export type ReleaseOpsV2Observation = {
  view: ObservationViewV2
  /** The tool this observation answers (absent after reset). */
  tool?: string
  result?: JsonObject
  error?: EnvError & JsonObject
}

const archetypePattern = archetypes.join('|')
const mixPattern = new RegExp(`^(${archetypePattern})__(${archetypePattern})__(${archetypePattern})$`)

export const resetOptionsV2 = z.object({
  family: z.enum(familiesV2).default('green_ci_disabled_payment_test'),
  difficulty: z.enum(difficulties).default('medium'),
  /** `author__reviewer__third`; defaults to the family's own mix. */
  archetype_mix: z
    .string()
    .regex(mixPattern, 'Expected author__reviewer__third, each one of careful, overconfident, shortcut, stale_policy, deadline.')
    .optional(),
  /** Consecutive free calls that change nothing (re-reads, repeated questions) before the episode is truncated. */
  no_progress_limit: z.number().int().min(1).max(64).default(6),
})
export type ResetOptionsV2 = z.input<typeof resetOptionsV2>

export const releaseOpsV2Spec: EnvSpec = {
  id: 'releaseops-v2',
  description:
    'ReleaseOps Arena v2: a supervisor gates a checkout release under a review budget, a deadline and three safety rules. Facts are hidden until evidence verifies them, workers claim (and are sometimes wrong) according to their archetype, revisions may not fix anything, and every episode is winnable. The default env.',
  tools: releaseOpsTools,
  maxEpisodeSteps: 64,
  deterministic: true,
  invalidActionReward: rewards.invalid_action,
  defaultSeed: 42,
}

const toolsByName = new Map<string, ToolDefinition>(releaseOpsTools.map((tool) => [tool.name, tool]))

export interface ReleaseOpsV2EnvOptions {
  /** Builds the scenario of each reset (tests inject counterfactual facts here; never a reset option). */
  buildScenario?: (options: BuildScenarioV2Options) => ProvenScenario
}

export class ReleaseOpsV2Env implements Env<ReleaseOpsV2Observation> {
  readonly spec = releaseOpsV2Spec
  private readonly buildScenario: (options: BuildScenarioV2Options) => ProvenScenario
  private episode: EpisodeV2 | undefined
  private views: ViewBuilder | undefined
  private proof: OracleProof | undefined
  private steps = 0
  private noProgressStreak = 0
  private noProgressLimit = 6
  private truncated = false

  constructor(options: ReleaseOpsV2EnvOptions = {}) {
    this.buildScenario = options.buildScenario ?? ((build) => buildScenarioV2(build))
  }

  reset(params: ResetParams = {}): ResetResult<ReleaseOpsV2Observation> {
    const { seed, options } = parseResetParams({ spec: this.spec, params, optionsSchema: resetOptionsV2 })
    const { scenario, oracle } = this.buildScenario({
      family: options.family,
      seed,
      difficulty: options.difficulty,
      archetypeMix: options.archetype_mix ?? familySpec(options.family).defaultMix,
    })
    this.episode = new EpisodeV2(scenario)
    this.views = new ViewBuilder(scenario)
    this.proof = oracle
    this.steps = 0
    this.noProgressStreak = 0
    this.noProgressLimit = options.no_progress_limit
    this.truncated = false
    return { observation: { view: this.views.view(this.episode) }, info: this.info() }
  }

  step(call: ToolCall): StepResult<ReleaseOpsV2Observation> {
    const episode = this.episode
    if (!episode || this.truncated) throw new ResetNeededError()
    this.steps++
    episode.stepReward = 0
    const outcome = this.dispatch(episode, call)
    const view = (this.views as ViewBuilder).view(episode)
    const observation: ReleaseOpsV2Observation = { view, tool: String(call?.name) }
    if ('error' in outcome) {
      episode.invalidAction()
      observation.error = outcome.error
    } else {
      observation.result =
        outcome.phaseAdvanced && !episode.done ? { ...outcome.result, updated_observation: view } : outcome.result
      this.noProgressStreak = outcome.changed ? 0 : this.noProgressStreak + 1
    }
    this.truncated = !episode.done && this.noProgressStreak >= this.noProgressLimit
    const info = this.info()
    if (this.truncated) info.truncated_reason = 'no_progress'
    return { observation, reward: episode.stepReward, terminated: episode.done, truncated: this.truncated, info }
  }

  private dispatch(episode: EpisodeV2, call: ToolCall): ToolOutcome {
    const tool = typeof call?.name === 'string' ? toolsByName.get(call.name) : undefined
    if (!tool) return { error: { code: 'unknown_tool', message: `Unknown tool: ${String(call?.name)}` } }
    if (episode.done) return { error: { code: 'episode_terminal', message: 'Episode is already terminal.' } }
    const parsed = parseToolArguments(tool, call.arguments)
    if (!parsed.success) return { error: parsed.error }
    return applyCall(episode, tool.name, parsed.data as Record<string, string>)
  }

  render(observation: ReleaseOpsV2Observation): string {
    if (observation.error) return pythonDumps({ error: { code: observation.error.code, message: observation.error.message } })
    if (observation.result === undefined) return renderIndented(observation.view)
    return observation.result.updated_observation === undefined
      ? pythonDumps(observation.result)
      : renderIndented(observation.result)
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
      cumulative_reward: episode.reward,
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
  privilegedEpisode(): EpisodeV2 | undefined {
    return this.episode
  }

  private info(): EpisodeInfo {
    const episode = this.episode as EpisodeV2
    return {
      cumulative_reward: episode.reward,
      step_count: this.steps,
      terminal_reason: episode.terminalReason,
      metrics: { ...episode.metrics },
      budget_spent: episode.initialBudget - episode.budget,
    }
  }
}

/** Python's `json.dumps(x, indent=2)`: V8's indent-2 output is byte-identical for ASCII str/int/bool data. */
export function renderIndented(value: unknown): string {
  const text = JSON.stringify(value, null, 2)
  return /[\u007f-\uffff]/.test(text) ? pythonDumpsIndent2(value) : text
}
