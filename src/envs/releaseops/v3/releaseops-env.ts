/**
 * @module envs/releaseops/v3: `releaseops-v3`, the default Arena. v2's story, tools, phases, rule ids,
 * views and row format, with mechanics under which a supervisor who has not verified a fact cannot
 * profit from acting as if it had (`episode-v3.ts`), a new held-out evidence structure, and an
 * episode that ends without a ship decision scored as a missed deadline. See README.md beside this file.
 */
import type { z } from 'zod'
import type { EnvSpec, StepResult, ToolCall } from '../../../core/env/env-api.js'
import { ResetNeededError } from '../../../core/errors/reset-needed-error.js'
import type { JsonObject } from '../../../core/json/json-value.js'
import type { ViewBuilder } from '../arena/observation-view.js'
import { ReleaseOpsEnvBase, type ReleaseOpsObservation } from '../arena/releaseops-env-base.js'
import { resetOptionsSchema } from '../arena/reset-options-schema.js'
import { rewards } from '../shared/rewards.js'
import { releaseOpsTools } from '../shared/tools.js'
import { applyCallV3 } from './apply-call.js'
import { type BuildScenarioV3Options, buildScenarioV3, type ProvenScenarioV3 } from './build-scenario.js'
import { EpisodeV3 } from './episode.js'
import { type FamilyV3, familiesV3, familySpecV3 } from './families/index.js'

export type ReleaseOpsV3Observation = ReleaseOpsObservation

const resetOptionsV3 = resetOptionsSchema(familiesV3)
export type ResetOptionsV3 = z.input<typeof resetOptionsV3>

/** What an episode that ends without a ship decision scores: a missed deadline. */
const unfinishedEpisodeRewardV3 = rewards.missed_deadline

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

export interface ReleaseOpsV3EnvOptions {
  /** Builds the scenario of each reset (tests inject counterfactual facts here; never a reset option). */
  buildScenario?: (options: BuildScenarioV3Options) => ProvenScenarioV3
}

export class ReleaseOpsV3Env extends ReleaseOpsEnvBase<FamilyV3, EpisodeV3> {
  constructor(options: ReleaseOpsV3EnvOptions = {}) {
    super({
      spec: releaseOpsV3Spec,
      optionsSchema: resetOptionsV3,
      buildScenario: options.buildScenario ?? ((build) => buildScenarioV3(build)),
      defaultMix: (family) => familySpecV3(family).defaultMix,
      newEpisode: (scenario) => new EpisodeV3(scenario),
      applyCall: applyCallV3,
    })
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
    const observation = this.advance(episode, call)
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

  /** The episode's score so far: the running total, plus the missed-deadline charge while it has not ended. */
  protected override score(): number {
    const episode = this.episode as EpisodeV3
    return episode.done || this.truncated ? episode.reward : episode.reward + unfinishedEpisodeRewardV3
  }

  protected override extraRewardState(): JsonObject {
    return { running_reward: (this.episode as EpisodeV3).reward }
  }
}
