/**
 * @module envs/grading: `grading-v1`, the classification-and-grading task as an environment. Reset gives
 * the native-v2 prompt for one record; the four category tools answer with the original's results; the
 * episode ends with the agent's final reply (`final_response`), rewarded 1.0 iff category and level are
 * both right.
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
} from '../../core/env/env-api.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ResetNeededError } from '../../core/errors/reset-needed-error.js'
import type { JsonObject } from '../../core/json/json-value.js'
import { pythonDumpsUnicode } from '../../core/python/python-json.js'
import { parseToolArguments, type ToolDefinition } from '../../core/tools/define-tool.js'
import { parseFinalAnswer } from './final-answer.js'
import { episodeSourceFromOptions, type GradingEpisodeSource } from './grading-episode-source.js'
import type { GradingTask } from './grading-task.js'
import { buildNativeUserPrompt } from './native-prompt.js'
import type { ToolOutcome } from './tools/category-toolbox.js'
import { categoryTools } from './tools/category-tools.js'

/** The reserved action carrying the agent's final reply (not a model tool): `{content}`. */
export const finalResponseAction = 'final_response'
const finalResponseArguments = z.strictObject({ content: z.string() })

/**
 * A final reply as an RL loop delivers it: the text of the turn that made no tool call. An object no chat
 * parser can produce, so an env built with `finalReplyOnly` tells it from a model's own call named
 * `final_response` (which, as in VeRL, is a call to a tool that does not exist).
 */
export class FinalReply {
  constructor(
    readonly content: string,
    /** The turn the answer was read from, as generated (kept for re-scoring the episode elsewhere). */
    readonly turn?: { text: string; openThink: boolean },
  ) {}
  toJSON(): { content: string } {
    return { content: this.content }
  }
}

export type GradingObservation = {
  /** After reset: the prompt, `[system, user]`. */
  messages?: { role: 'system' | 'user'; content: string }[]
  /** The tool this observation answers. */
  tool?: string
  /** The tool's result object (rendered as Python `json.dumps(result, ensure_ascii=False)`). */
  result?: JsonObject
  /** After the final reply: how it was judged. */
  final?: JsonObject
  error?: EnvError & JsonObject
}

export const gradingV1Spec: EnvSpec = {
  id: 'grading-v1',
  description:
    'Data classification and grading: given one database field (name, table, descriptions), pick its leaf category from a classification standard and its sensitivity level, using category search, details, examples and browse tools. The final reply is one JSON object {"answer": <choice_id>, "level": <level>}; reward 1.0 iff both are right.',
  tools: categoryTools,
  maxEpisodeSteps: 4,
  deterministic: true,
  invalidActionReward: 0,
  defaultSeed: 0,
}

interface Episode {
  source: GradingEpisodeSource
  steps: number
  toolCalls: { name: string; arguments: JsonObject }[]
  done: boolean
  reward: number
  final?: JsonObject
}

const toolsByName = new Map<string, ToolDefinition>(categoryTools.map((tool) => [tool.name, tool]))

export interface GradingEnvOptions {
  task: GradingTask
  /** Records a reset without options draws from, by `seed` modulo their count. */
  defaultSources?: readonly GradingEpisodeSource[]
  /** Only a `FinalReply` ends the episode; a call named `final_response` with plain arguments is `unknown_tool`. */
  finalReplyOnly?: boolean
}

export class GradingEnv implements Env<GradingObservation> {
  readonly spec = gradingV1Spec
  private episode: Episode | undefined

  constructor(private readonly options: GradingEnvOptions) {}

  get task(): GradingTask {
    return this.options.task
  }

  reset(params: ResetParams = {}): ResetResult<GradingObservation> {
    const seed = params.seed ?? this.spec.defaultSeed
    if (!Number.isSafeInteger(seed)) {
      throw new InvalidInputError({
        message: `Seed must be an integer, got ${String(seed)}.`,
        issues: [{ code: 'invalid_type', path: 'seed', message: 'Expected an integer.' }],
      })
    }
    const source =
      params.options && Object.keys(params.options).length > 0
        ? episodeSourceFromOptions(params.options, this.task)
        : this.defaultSource(seed)
    this.episode = { source, steps: 0, toolCalls: [], done: false, reward: 0 }
    const user = buildNativeUserPrompt(source.metadata, this.task.taskConfig.metadata_fields)
    return {
      observation: {
        messages: [
          { role: 'system', content: this.task.systemPrompt },
          { role: 'user', content: user },
        ],
      },
      info: this.info(),
    }
  }

  step(call: ToolCall): StepResult<GradingObservation> {
    const episode = this.episode
    if (!episode) throw new ResetNeededError()
    episode.steps++
    const name = typeof call?.name === 'string' ? call.name : String(call?.name)
    let observation: GradingObservation
    let reward = 0
    if (episode.done) {
      observation = { tool: name, error: { code: 'episode_terminal', message: 'The episode has ended; reset first.' } }
    } else if (name === finalResponseAction && (!this.options.finalReplyOnly || call.arguments instanceof FinalReply)) {
      const args = call.arguments instanceof FinalReply ? call.arguments.toJSON() : call.arguments
      const parsed = finalResponseArguments.safeParse(typeof args === 'string' ? safeJson(args) : args)
      if (!parsed.success) {
        observation = {
          tool: name,
          error: { code: 'invalid_arguments', message: 'final_response takes {"content": <the reply text>}.' },
        }
      } else {
        reward = this.judge(episode, parsed.data.content)
        observation = { final: episode.final as JsonObject }
      }
    } else {
      observation = this.callTool(episode, name, call.arguments)
    }
    return { observation, reward, terminated: episode.done, truncated: false, info: this.info() }
  }

  render(observation: GradingObservation): string {
    if (observation.error)
      return pythonDumpsUnicode({ error: { code: observation.error.code, message: observation.error.message } })
    if (observation.result !== undefined) return pythonDumpsUnicode(observation.result)
    if (observation.final !== undefined) return pythonDumpsUnicode(observation.final)
    return observation.messages?.find((message) => message.role === 'user')?.content ?? ''
  }

  state(): JsonObject {
    const episode = this.episode
    if (!episode) return {}
    return {
      env_id: this.spec.id,
      source_id: episode.source.sourceId,
      step_count: episode.steps,
      tool_calls: episode.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })),
      done: episode.done,
      cumulative_reward: episode.reward,
    }
  }

  /** The episode's labels as choice id and level (privileged policies and debugging only). */
  hiddenState(): { source_id: string; choice_id: string; category_id: string; level: string } {
    const episode = this.episode
    if (!episode) throw new ResetNeededError()
    const { sourceId, groundTruth, groundTruthLevel } = episode.source
    return {
      source_id: sourceId,
      choice_id: this.task.choices.byCategory(groundTruth).choiceId,
      category_id: groundTruth,
      level: groundTruthLevel,
    }
  }

  private defaultSource(seed: number): GradingEpisodeSource {
    const sources = this.options.defaultSources ?? []
    if (sources.length === 0) {
      throw new InvalidInputError({
        code: 'invalid_reset_options',
        message: 'This grading env has no default records: reset with options.record or options.row.',
        issues: [{ code: 'missing_record', path: 'options', message: 'give options.record or options.row' }],
      })
    }
    return sources[((seed % sources.length) + sources.length) % sources.length] as GradingEpisodeSource
  }

  private callTool(episode: Episode, name: string, raw: unknown): GradingObservation {
    const tool = toolsByName.get(name)
    if (!tool) return { tool: name, error: { code: 'unknown_tool', message: `Unknown tool: ${name}` } }
    const parsed = parseToolArguments(tool, raw)
    if (!parsed.success) return { tool: name, error: parsed.error as EnvError & JsonObject }
    const args = parsed.data as Record<string, unknown>
    const toolbox = this.task.toolbox
    let outcome: ToolOutcome<object>
    switch (name) {
      case 'search_categories':
        outcome = toolbox.search({
          fieldName: args.field_name as string,
          tableName: args.table_name as string,
          topK: args.top_k as number,
          ...(args.scope === undefined ? {} : { scope: args.scope as string }),
        })
        break
      case 'get_category_details':
        outcome = toolbox.details(args.choice_ids as string[])
        break
      case 'get_category_examples':
        outcome = toolbox.examples(args.choice_ids as string[], args.limit as number)
        break
      default:
        outcome = toolbox.browse()
    }
    if (!outcome.ok) return { tool: name, error: { ...outcome.error } }
    episode.toolCalls.push({ name, arguments: args as JsonObject })
    return { tool: name, result: outcome.result as JsonObject }
  }

  private judge(episode: Episode, content: string): number {
    const parsed = parseFinalAnswer(content, { choices: this.task.choices, grading: this.task.grading })
    episode.done = true
    if (!parsed.ok) {
      episode.final = {
        valid: false,
        code: parsed.code,
        reason: parsed.reason,
        category_correct: false,
        level_correct: false,
        reward: 0,
      }
      return 0
    }
    const categoryCorrect = parsed.answer.categoryId === episode.source.groundTruth
    const levelCorrect = parsed.answer.level === episode.source.groundTruthLevel
    const reward = categoryCorrect && levelCorrect ? 1 : 0
    episode.reward = reward
    episode.final = {
      valid: true,
      answer: { choice_id: parsed.answer.choiceId, level: parsed.answer.level },
      category_correct: categoryCorrect,
      level_correct: levelCorrect,
      reward,
    }
    return reward
  }

  private info(): EpisodeInfo {
    const episode = this.episode as Episode
    return {
      cumulative_reward: episode.reward,
      step_count: episode.steps,
      tool_calls: episode.toolCalls.length,
      ...(episode.final ? { outcome: episode.final } : {}),
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
