/**
 * @module envs/releaseops/v2: `releaseops-v2`, the Arena worth training on. Same story, tools, phases,
 * rules and reward table as v1, with the ground truth hidden until evidence shows it, archetypes that
 * behave, revisions that may not fix anything, unique ids, per-step rewards and every episode proven
 * winnable. See README.md beside this file.
 */
import type { z } from 'zod'
import type { EnvSpec, StepResult, ToolCall } from '../../../core/env/env-api.js'
import { ResetNeededError } from '../../../core/errors/reset-needed-error.js'
import { applyCall } from '../arena/apply-call.js'
import { type BuildScenarioV2Options, buildScenarioV2, type ProvenScenario } from '../arena/build-scenario.js'
import { ArenaEpisode } from '../arena/episode.js'
import { type FamilyV2, familiesV2, familySpec } from '../arena/families/index.js'
import { ReleaseOpsEnvBase, type ReleaseOpsObservation } from '../arena/releaseops-env-base.js'
import { resetOptionsSchema } from '../arena/reset-options-schema.js'
import { rewards } from '../shared/rewards.js'
import { releaseOpsTools } from '../shared/tools.js'

export { renderIndented } from '../arena/releaseops-env-base.js'

export type ReleaseOpsV2Observation = ReleaseOpsObservation

const resetOptionsV2 = resetOptionsSchema(familiesV2)
export type ResetOptionsV2 = z.input<typeof resetOptionsV2>

export const releaseOpsV2Spec: EnvSpec = {
  id: 'releaseops-v2',
  description:
    'ReleaseOps Arena v2: a supervisor gates a checkout release under a review budget, a deadline and three safety rules. Facts are hidden until evidence verifies them, workers claim (and are sometimes wrong) according to their archetype, revisions may not fix anything, and every episode is winnable. Frozen for published numbers; releaseops-v3 is the default.',
  tools: releaseOpsTools,
  maxEpisodeSteps: 64,
  deterministic: true,
  invalidActionReward: rewards.invalid_action,
  defaultSeed: 42,
}

export interface ReleaseOpsV2EnvOptions {
  /** Builds the scenario of each reset (tests inject counterfactual facts here; never a reset option). */
  buildScenario?: (options: BuildScenarioV2Options) => ProvenScenario
}

export class ReleaseOpsV2Env extends ReleaseOpsEnvBase<FamilyV2, ArenaEpisode> {
  constructor(options: ReleaseOpsV2EnvOptions = {}) {
    super({
      spec: releaseOpsV2Spec,
      optionsSchema: resetOptionsV2,
      buildScenario: options.buildScenario ?? ((build) => buildScenarioV2(build)),
      defaultMix: (family) => familySpec(family).defaultMix,
      newEpisode: (scenario) => new ArenaEpisode(scenario),
      applyCall,
    })
  }

  step(call: ToolCall): StepResult<ReleaseOpsV2Observation> {
    const episode = this.episode
    if (!episode || this.truncated) throw new ResetNeededError()
    const observation = this.advance(episode, call)
    this.truncated = !episode.done && this.noProgressStreak >= this.noProgressLimit
    const info = this.info()
    if (this.truncated) info.truncated_reason = 'no_progress'
    return { observation, reward: episode.stepReward, terminated: episode.done, truncated: this.truncated, info }
  }
}
