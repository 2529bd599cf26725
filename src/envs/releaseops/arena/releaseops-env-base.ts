/**
 * @module envs/releaseops/arena: the env machinery v2 and v3 share: reset, one step's dispatch and
 * observation, rendering, state and info. A version supplies its spec, reset schema, scenario builder,
 * episode class and call router, and (v3) its own end-of-episode rules on top of `advance`.
 */
import type { z } from 'zod'
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
import type { JsonObject } from '../../../core/json/json-value.js'
import { pythonDumps, pythonDumpsIndent2 } from '../../../core/python/python-json.js'
import { parseToolArguments, type ToolDefinition } from '../../../core/tools/define-tool.js'
import { releaseOpsTools } from '../shared/tools.js'
import type { OracleProof } from './build-scenario.js'
import type { Difficulty } from './difficulty.js'
import type { ArenaEpisode, ToolOutcome } from './episode.js'
import { hiddenStateOf } from './hidden-state.js'
import { type ArenaObservationView, ViewBuilder } from './observation-view.js'
import type { Scenario } from './scenario.js'
import { ScenarioRandom } from './scenario-random.js'

export type ReleaseOpsObservation = {
  view: ArenaObservationView
  /** The tool this observation answers (absent after reset). */
  tool?: string
  result?: JsonObject
  error?: EnvError & JsonObject
}

/** What a version's reset schema parses to. */
export interface ReleaseOpsResetOptions<F extends string> {
  family: F
  difficulty: Difficulty
  archetype_mix?: string | undefined
  no_progress_limit: number
}

export interface ReleaseOpsEnvParts<F extends string, E extends ArenaEpisode> {
  spec: EnvSpec
  // biome-ignore lint/suspicious/noExplicitAny: the schema's input type is the version's own.
  optionsSchema: z.ZodType<ReleaseOpsResetOptions<F>, any>
  /** Builds each reset's scenario from the env's own streams (`random`), re-seeded in place. */
  buildScenario: (options: { family: F; seed: number; difficulty: Difficulty; archetypeMix: string; random: ScenarioRandom }) => {
    scenario: Scenario
    oracle: OracleProof
  }
  defaultMix: (family: F) => string
  newEpisode: (scenario: Scenario) => E
  applyCall: (episode: E, name: string, args: Record<string, string>) => ToolOutcome
}

const toolsByName = new Map<string, ToolDefinition>(releaseOpsTools.map((tool) => [tool.name, tool]))

export abstract class ReleaseOpsEnvBase<F extends string, E extends ArenaEpisode> implements Env<ReleaseOpsObservation> {
  readonly spec: EnvSpec
  protected episode: E | undefined
  protected views: ViewBuilder | undefined
  protected steps = 0
  protected truncated = false
  protected noProgressStreak = 0
  protected noProgressLimit = 6
  private proof: OracleProof | undefined
  /** This env's random streams: every reset re-seeds them, no other env draws from them. */
  private readonly random = new ScenarioRandom()

  constructor(private readonly parts: ReleaseOpsEnvParts<F, E>) {
    this.spec = parts.spec
  }

  reset(params: ResetParams = {}): ResetResult<ReleaseOpsObservation> {
    const { seed, options } = parseResetParams({ spec: this.spec, params, optionsSchema: this.parts.optionsSchema })
    const { scenario, oracle } = this.parts.buildScenario({
      family: options.family,
      seed,
      difficulty: options.difficulty,
      archetypeMix: options.archetype_mix ?? this.parts.defaultMix(options.family),
      random: this.random,
    })
    this.episode = this.parts.newEpisode(scenario)
    this.views = new ViewBuilder(scenario)
    this.proof = oracle
    this.steps = 0
    this.noProgressStreak = 0
    this.noProgressLimit = options.no_progress_limit
    this.truncated = false
    return { observation: { view: this.views.view(this.episode) }, info: this.info() }
  }

  abstract step(call: ToolCall): StepResult<ReleaseOpsObservation>

  /** One counted call: dispatch it, charge an invalid one, track progress; the version decides the end. */
  protected advance(episode: E, call: ToolCall): ReleaseOpsObservation {
    this.steps++
    episode.stepReward = 0
    const outcome = this.dispatch(episode, call)
    const view = (this.views as ViewBuilder).view(episode)
    const observation: ReleaseOpsObservation = { view, tool: String(call?.name) }
    if ('error' in outcome) {
      episode.invalidAction()
      observation.error = outcome.error
    } else {
      observation.result =
        outcome.phaseAdvanced && !episode.done ? { ...outcome.result, updated_observation: view } : outcome.result
      this.noProgressStreak = outcome.changed ? 0 : this.noProgressStreak + 1
    }
    return observation
  }

  private dispatch(episode: E, call: ToolCall): ToolOutcome {
    const tool = typeof call?.name === 'string' ? toolsByName.get(call.name) : undefined
    if (!tool) return { error: { code: 'unknown_tool', message: `Unknown tool: ${String(call?.name)}` } }
    if (episode.done) return { error: { code: 'episode_terminal', message: 'Episode is already terminal.' } }
    const parsed = parseToolArguments(tool, call.arguments)
    if (!parsed.success) return { error: parsed.error }
    return this.parts.applyCall(episode, tool.name, parsed.data as Record<string, string>)
  }

  render(observation: ReleaseOpsObservation): string {
    if (observation.error) return pythonDumps({ error: { code: observation.error.code, message: observation.error.message } })
    if (observation.result === undefined) return renderIndented(observation.view)
    return observation.result.updated_observation === undefined
      ? pythonDumps(observation.result)
      : renderIndented(observation.result)
  }

  /** The episode's score so far (v2: the running total). */
  protected score(): number {
    return (this.episode as E).reward
  }

  /** Fields a version adds to `state()` right after `cumulative_reward`. */
  protected extraRewardState(): JsonObject {
    return {}
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
      ...this.extraRewardState(),
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
  privilegedEpisode(): E | undefined {
    return this.episode
  }

  protected info(): EpisodeInfo {
    const episode = this.episode as E
    return {
      cumulative_reward: this.score(),
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
