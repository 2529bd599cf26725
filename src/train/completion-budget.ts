/**
 * @module train: the completion budget a GRPO run needs, measured. TRL counts every tool reply against
 * `max_completion_length` and silently drops a reply that would overflow it, after the server already
 * applied the step, so an episode cut short by the budget is cut without anyone being told. Here the
 * env's own policy ladder plays rows of the split through the agent loop; each episode is rendered with
 * the model family's chat template (thinking off, as the trainer prompts), the assistant turns emptied of
 * text, and the tokens after the generation prompt are counted with the Qwen3 tokenizer: the calls and
 * the replies alone. A run's `max_completion_length` must hold the ladder's worst p99 plus room for the
 * model's own text per turn.
 */
import { policyAgent } from '../agent/policy-agent.js'
import { runEpisode } from '../agent/run-episode.js'
import { qwen3TokenCounter } from '../agent/token-counter.js'
import type { ChatMessage } from '../chat/chat-message.js'
import { chatFormat } from '../chat/format-registry.js'
import type { EnvRegistry } from '../core/registry/env-registry.js'
import type { PolicyRegistry } from '../core/registry/policy-registry.js'
import { SegmentTokenCounter, turnPieces } from '../release/trajectories/stats/segment-token-counter.js'
import { TrainingUnavailableError } from './training-errors.js'

/** Model families whose chat template we render with (`--format`). */
export const budgetFormats = ['qwen3', 'qwen3.5'] as const
export type BudgetFormat = (typeof budgetFormats)[number]

/** Tokens kept per assistant turn for the model's own words around a call (a policy writes none). */
const modelTextRoomPerTurn = 48

export interface PolicyBudget {
  policy: string
  episodes: number
  p50: number
  p99: number
  max: number
  /** Assistant turns of the episode at the p99 length. */
  turns_at_p99: number
}

export interface CompletionBudget {
  env: string
  format: BudgetFormat
  split: string
  rows: number
  /** Tool rounds counted per episode (null: whole episodes). */
  tool_rounds: number | null
  policies: PolicyBudget[]
  /** The largest p99 over the policies. */
  p99: number
  room: number
  /** The smallest `max_completion_length` accepted: p99 + room. */
  minimum: number
  /** `minimum` rounded up to a multiple of 64 (what the presets use). */
  recommended: number
}

/** The model family a model name belongs to (Qwen3.5 by name, else Qwen3). */
export function budgetFormatFor(model: string): BudgetFormat {
  return /qwen3[._-]?5/i.test(model) ? 'qwen3.5' : 'qwen3'
}

/** Nearest-rank percentile of ascending values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number
}

/** The conversation up to `rounds` tool rounds, assistant text removed (what the budget counts). */
function callsAndReplies(
  messages: readonly ChatMessage[],
  rounds: number | null,
): { prompt: ChatMessage[]; turns: ChatMessage[] } {
  const first = messages.findIndex((message) => message.role === 'assistant')
  const prompt = messages.slice(0, first === -1 ? messages.length : first)
  const turns: ChatMessage[] = []
  let assistants = 0
  for (const message of first === -1 ? [] : messages.slice(first)) {
    if (message.role === 'assistant') {
      if (rounds !== null && assistants >= rounds) break
      assistants++
      turns.push({ role: 'assistant', content: '', ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}) })
    } else turns.push(message)
  }
  return { prompt, turns }
}

/** One piece cache per process: replies and prompts repeat across policies, families and runs. */
let sharedCounter: Promise<SegmentTokenCounter> | undefined

const emptyThink = '<think>\n\n</think>\n\n'
const assistantHeader = '<|im_start|>assistant\n'

/**
 * Tokens after the generation prompt, as TRL's tool loop builds them: every assistant turn opens with the
 * empty think block thinking-off prompts carry (TRL renders with a prefix-preserving training template;
 * Qwen3's own template drops that block from earlier turns, so it is counted back in here), and the
 * first turn's header is the prompt's, not the completion's.
 */
function completionTokens(
  format: ReturnType<typeof chatFormat>,
  counter: SegmentTokenCounter,
  prompt: ChatMessage[],
  turns: ChatMessage[],
  tools: Parameters<ReturnType<typeof chatFormat>['render']>[0]['tools'],
): number {
  const text = format.render({ messages: [...prompt, ...turns], tools, addGenerationPrompt: false, enableThinking: false })
  const all = turnPieces(text)
  const first = all.findIndex((piece) => piece.startsWith(assistantHeader))
  const pieces = first === -1 ? [] : all.slice(first)
  let tokens = -counter.count(assistantHeader + emptyThink)
  for (const piece of pieces) {
    tokens += counter.count(piece)
    if (piece.startsWith(assistantHeader) && !piece.startsWith(assistantHeader + emptyThink)) tokens += counter.count(emptyThink)
  }
  return Math.max(0, tokens)
}

export async function measureCompletionBudget(options: {
  envId: string
  envs: EnvRegistry
  policies: PolicyRegistry
  format: BudgetFormat
  split?: string
  rows?: number
  toolRounds?: number | null
}): Promise<CompletionBudget> {
  const split = options.split ?? 'train'
  const dataset = options.envs.get(options.envId).dataset
  if (!dataset) {
    throw new TrainingUnavailableError({ code: 'no_dataset', message: `Env ${options.envId} has no dataset.`, status: 422 })
  }
  const rows = dataset.rows(split).slice(0, options.rows ?? 64)
  const format = chatFormat(options.format)
  sharedCounter ??= qwen3TokenCounter().then((tokenizer) => new SegmentTokenCounter(tokenizer))
  const counter = await sharedCounter
  const toolRounds = options.toolRounds ?? null
  const policies: PolicyBudget[] = []
  for (const policy of options.policies.names(options.envId)) {
    const lengths: { tokens: number; turns: number }[] = []
    for (const row of rows) {
      const result = await runEpisode({
        env: options.envs.make(options.envId),
        agent: policyAgent(options.policies.create(options.envId, policy)),
        reset: dataset.toResetParams(row),
        prompt: row.prompt,
      })
      const { prompt, turns } = callsAndReplies(result.trajectory.messages, toolRounds)
      lengths.push({
        tokens: completionTokens(format, counter, prompt, turns, result.trajectory.tools),
        turns: turns.filter((m) => m.role === 'assistant').length,
      })
    }
    lengths.sort((a, b) => a.tokens - b.tokens)
    const sorted = lengths.map((length) => length.tokens)
    const p99 = percentile(sorted, 99)
    policies.push({
      policy,
      episodes: lengths.length,
      p50: percentile(sorted, 50),
      p99,
      max: sorted.at(-1) ?? 0,
      turns_at_p99: lengths.find((length) => length.tokens === p99)?.turns ?? 0,
    })
  }
  const worst = policies.reduce<PolicyBudget | undefined>((top, entry) => (!top || entry.p99 > top.p99 ? entry : top), undefined)
  const p99 = worst?.p99 ?? 0
  const room = modelTextRoomPerTurn * Math.max(1, worst?.turns_at_p99 ?? 1)
  const minimum = p99 + room
  return {
    env: options.envId,
    format: options.format,
    split,
    rows: rows.length,
    tool_rounds: toolRounds,
    policies,
    p99,
    room,
    minimum,
    recommended: Math.ceil(minimum / 64) * 64,
  }
}

/** Rows of the split each policy plays (the CLI's default and the start route's). */
export const budgetRows = 64

const measured = new Map<string, Promise<CompletionBudget>>()

/**
 * The budget of a run about to start, measured once per env, split, family and tool rounds in this
 * process (episodes are deterministic); undefined for an env without a policy ladder to measure with.
 */
export function runCompletionBudget(options: {
  envId: string
  envs: EnvRegistry
  policies: PolicyRegistry
  split: string
  format: BudgetFormat
  toolRounds: number | null
}): Promise<CompletionBudget> | undefined {
  if (options.policies.names(options.envId).length === 0) return undefined
  const key = JSON.stringify([options.envId, options.split, options.format, options.toolRounds])
  let budget = measured.get(key)
  if (!budget) {
    budget = measureCompletionBudget({ ...options, rows: budgetRows })
    budget.catch(() => measured.delete(key))
    measured.set(key, budget)
  }
  return budget
}

/** A `max_completion_length` under the measured minimum: a coded 422 naming the figures. */
export function checkCompletionBudget(maxCompletionLength: number, budget: CompletionBudget): void {
  if (maxCompletionLength >= budget.minimum) return
  const worst = budget.policies.find((entry) => entry.p99 === budget.p99)
  throw new TrainingUnavailableError({
    code: 'completion_budget_too_small',
    path: 'max_completion_length',
    status: 422,
    message:
      `max_completion_length ${maxCompletionLength} is below what ${budget.env} needs with the ${budget.format} template: ` +
      `the calls and replies of ${worst?.policy ?? 'its policies'} reach ${budget.p99} tokens at p99` +
      `${budget.tool_rounds === null ? '' : ` over ${budget.tool_rounds} tool round(s)`}, plus ${budget.room} for the model's text = ${budget.minimum}. ` +
      `TRL drops a tool reply that overflows the budget after the env applied the step. Use at least ${budget.minimum} (${budget.recommended} recommended); \`releaseops train budget --env ${budget.env} --format ${budget.format}\` prints the figures.`,
  })
}
