/**
 * @module cli: the scripted model of `mock-llm --env grading-v1 --release <dir> --split <name>`: it plays a
 * grading policy over the rows of a published RL release (the prompts the rollout gate sends), on the
 * release's own tasks, and answers in text as a model does. The env's built-in demo rows never match a
 * user's release, which is why a grading gate needs this.
 */
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { gradingV1Spec } from '../../envs/grading/grading-env.js'
import { policyRegistry } from '../../envs/index.js'
import { FinalTextScriptedModel } from '../../eval/gate/scripted-gate-model.js'
import { releaseReplayEnvs } from '../../release/rl/release-replay-envs.js'
import { releaseRolloutSource } from '../../release/rl/release-rollout-source.js'

export interface ReleaseModelOptions {
  release: string
  split: string
  policy: string
  registry?: string
  corpus?: string
  taskConfig?: string
  gradingManifest?: string
  gradingConfig?: string
  callsPerTurn: number
  reasoning: boolean
}

export async function releaseScriptedModel(options: ReleaseModelOptions): Promise<FinalTextScriptedModel> {
  for (const [flag, value] of [
    ['--registry', options.registry],
    ['--corpus', options.corpus],
    ['--grading-config (or --grading-manifest)', options.gradingConfig ?? options.gradingManifest],
  ] as const) {
    if (!value) {
      throw new InvalidInputError({
        code: 'missing_option',
        path: flag,
        message: `mock-llm --release needs ${flag} (the task files the release was built from).`,
        issues: [{ code: 'missing_option', path: flag, message: 'required with --release' }],
      })
    }
  }
  const source = await releaseRolloutSource({
    directory: options.release,
    split: options.split,
    registry: options.registry as string,
    corpus: options.corpus as string,
    ...(options.gradingManifest ? { gradingManifest: options.gradingManifest } : {}),
    ...(options.gradingConfig ? { gradingConfig: options.gradingConfig } : {}),
    ...(options.taskConfig ? { taskConfig: options.taskConfig } : {}),
  })
  const { rows, envs } = releaseReplayEnvs({ source, split: options.split })
  return new FinalTextScriptedModel({
    envId: gradingV1Spec.id,
    policy: options.policy,
    rows,
    envs,
    policies: policyRegistry,
    callsPerTurn: options.callsPerTurn,
    reasoning: options.reasoning,
  })
}
