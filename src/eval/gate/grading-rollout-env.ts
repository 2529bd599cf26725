/**
 * @module eval/gate: the grading env as an RL rollout sees it. The episode's prompt comes from the release
 * row (VeRL's `raw_prompt`), so the reset observation adds no text to the conversation; the row's prompt
 * must equal the env's own reset prompt for that metadata, byte for byte, or the reset is refused. Rows of
 * several datasets (a mixture) each run on their own dataset's task (its grading standard). The model's
 * tools are the four category tools: only the loop's `FinalReply` answers, and a model's call named
 * `final_response` is `unknown_tool`, as VeRL answers a call to a tool it was not given.
 */
import type { Env, ResetParams, ResetResult, StepResult, ToolCall } from '../../core/env/env-api.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ResetNeededError } from '../../core/errors/reset-needed-error.js'
import type { JsonObject } from '../../core/json/json-value.js'
import { GradingEnv, type GradingObservation, gradingV1Spec } from '../../envs/grading/grading-env.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'

export class GradingRolloutEnv implements Env<GradingObservation> {
  readonly spec = gradingV1Spec
  private readonly envs: Map<string, GradingEnv>
  private current: GradingEnv | undefined

  /** `finalReplyOnly: false` for a scripted model's shadow env, whose policies answer with plain `final_response`. */
  constructor(options: { tasks: Readonly<Record<string, GradingTask>>; finalReplyOnly?: boolean }) {
    const finalReplyOnly = options.finalReplyOnly ?? true
    this.envs = new Map(
      Object.entries(options.tasks).map(([dataset, task]) => [dataset, new GradingEnv({ task, finalReplyOnly })]),
    )
  }

  reset(params: ResetParams = {}): ResetResult<GradingObservation> {
    const row = params.options?.row as { prompt?: unknown; extra_info?: { dataset?: unknown } } | undefined
    const dataset = row?.extra_info?.dataset
    const env = typeof dataset === 'string' ? this.envs.get(dataset) : undefined
    if (!env) {
      throw new InvalidInputError({
        code: 'invalid_reset_options',
        message: `A rollout row must name one of the datasets ${[...this.envs.keys()].join(', ')} in extra_info.dataset.`,
        issues: [{ code: 'unknown_dataset', path: 'options.row.extra_info.dataset', message: String(dataset) }],
      })
    }
    const result = env.reset(params)
    const expected = JSON.stringify(result.observation.messages)
    if (JSON.stringify(row?.prompt) !== expected) {
      throw new InvalidInputError({
        code: 'prompt_mismatch',
        message: 'The row prompt is not the env prompt for its metadata: the release was not built from this task.',
        issues: [{ code: 'prompt_mismatch', path: 'options.row.prompt', message: 'differs from the grading env reset prompt' }],
      })
    }
    this.current = env
    return result
  }

  step(call: ToolCall): StepResult<GradingObservation> {
    if (!this.current) throw new ResetNeededError()
    return this.current.step(call)
  }

  /** The reset prompt is the row's own prompt already: it adds nothing to the conversation. */
  render(observation: GradingObservation): string {
    if (observation.messages !== undefined) return ''
    return (this.current ?? ([...this.envs.values()][0] as GradingEnv)).render(observation)
  }

  state(): JsonObject {
    return this.current?.state() ?? {}
  }

  /** The episode's labels (privileged scripted models only). */
  hiddenState(): ReturnType<GradingEnv['hiddenState']> {
    if (!this.current) throw new ResetNeededError()
    return this.current.hiddenState()
  }
}
