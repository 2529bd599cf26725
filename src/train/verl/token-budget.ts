/**
 * @module train/verl: the release against the run's token budget, counted the way VeRL will see it: every
 * row of the splits the run reads (train, val) rendered with the official Qwen3.5 chat template and the
 * run's tool schemas (reduced as a VeRL rollout shows them, for RLOO) and thinking flag, counted with
 * the Qwen3 tokenizer. RLOO: the prompt with its generation prompt must fit `max_prompt_length` (VeRL would
 * otherwise drop or refuse it). SFT: the whole conversation must fit `max_length` (the dataset runs with
 * `truncation=error`). The SFT rows' own `tools` and `enable_thinking` must be the run's, row by row. RLOO
 * responses: the longest reference episode of each stage-1 row (three calls and the answer) must fit
 * `max_response_length`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { qwen3TokenCounter } from '../../agent/token-counter.js'
import type { ChatMessage, ChatTool } from '../../chat/chat-message.js'
import { chatFormat } from '../../chat/format-registry.js'
import type { GradingTask } from '../../envs/grading/grading-task.js'
import { verlVisibleTools } from '../../eval/gate/verl-visible-tools.js'
import { readTrajectoryMixtureRows, trajectoryMixtureColumns } from '../../release/mixtures/trajectory-family.js'
import { readParquetRows } from '../../release/parquet/parquet-rows.js'
import { readTrajectoryRows } from '../../release/trajectories/read-trajectory-rows.js'
import { SegmentTokenCounter } from '../../release/trajectories/stats/segment-token-counter.js'
import { ReferenceEpisodes, type ReferenceRow } from './reference-episode.js'
import type { CheckResult } from './verl-patches.js'
import type { VerlRunSettings } from './verl-run-settings.js'

export interface TokenBudgetOptions {
  release: string
  /** A trajectory mixture (rows carry `mixture_provenance`) rather than a single trajectory release. */
  mixture?: boolean
  settings: VerlRunSettings
  tools: readonly ChatTool[]
  metadataFields: readonly string[]
  /** RLOO: each dataset's task, to measure the longest reference episode against `max_response_length`. */
  tasks?: Readonly<Record<string, GradingTask>>
}

interface SplitBudget {
  rows: number
  max_tokens: number
  mean_tokens: number
  over_budget: number
  first_over?: string
}

const budgetSplits = ['train', 'val'] as const

function summarize(counts: readonly { id: string; tokens: number }[], budget: number): SplitBudget {
  const over = counts.filter((count) => count.tokens > budget)
  return {
    rows: counts.length,
    max_tokens: counts.reduce((max, count) => Math.max(max, count.tokens), 0),
    mean_tokens:
      counts.length === 0 ? 0 : Math.round((counts.reduce((sum, count) => sum + count.tokens, 0) / counts.length) * 10) / 10,
    over_budget: over.length,
    ...(over[0] ? { first_over: `${over[0].id} (${over[0].tokens} tokens)` } : {}),
  }
}

type RowCount = { id: string; tokens: number }

/** What the steps of one check share: the run's settings, its chat format and tools, the problems found. */
interface BudgetContext {
  options: TokenBudgetOptions
  format: ReturnType<typeof chatFormat>
  counter: SegmentTokenCounter
  /** A VeRL rollout shows the schemas as its pydantic model keeps them; SFT rows carry that very view. */
  rolloutTools: readonly ChatTool[]
  references: Map<GradingTask, ReferenceEpisodes>
  problems: string[]
}

export async function checkTokenBudget(options: TokenBudgetOptions): Promise<CheckResult> {
  const { settings } = options
  const context: BudgetContext = {
    options,
    format: chatFormat('qwen3.5'),
    counter: new SegmentTokenCounter(await qwen3TokenCounter()),
    rolloutTools: verlVisibleTools(options.tools),
    references: new Map(),
    problems: [],
  }
  const budget = settings.kind === 'sft' ? settings.max_length : settings.max_prompt_length
  const splits: Record<string, SplitBudget> = {}
  const responseSplits: Record<string, SplitBudget> = {}
  for (const split of budgetSplits) {
    const path = join(options.release, `${split}.parquet`)
    const counts =
      settings.kind === 'rloo'
        ? await measureRlooSplit(context, split, path, responseSplits)
        : measureSftSplit(context, split, path)
    splits[split] = summarize(counts, budget)
    if (counts.length === 0) context.problems.push(`${split}: no rows`)
    const summary = splits[split] as SplitBudget
    if (summary.over_budget > 0)
      context.problems.push(`${split}: ${summary.over_budget} row(s) exceed ${budget} tokens (first: ${summary.first_over})`)
  }
  return budgetResult({ context, budget, splits, responseSplits })
}

/**
 * RLOO: each row's prompt with its generation prompt; for a stage-1 row of a known task, the longest
 * reference episode's response too (summarized into `responseSplits`).
 */
async function measureRlooSplit(
  context: BudgetContext,
  split: string,
  path: string,
  responseSplits: Record<string, SplitBudget>,
): Promise<RowCount[]> {
  const { options, format, counter, rolloutTools, references } = context
  const settings = options.settings
  if (settings.kind !== 'rloo') return []
  const file = await readParquetRows(path)
  const counts: RowCount[] = []
  const responses: RowCount[] = []
  for (const [index, row] of file.rows.entries()) {
    const prompt = (row.prompt ?? []) as ChatMessage[]
    const render = (messages: ChatMessage[], addGenerationPrompt: boolean) =>
      format.render({ messages, tools: rolloutTools, addGenerationPrompt, enableThinking: settings.enable_thinking })
    const promptText = render(prompt, true)
    const promptTokens = counter.count(promptText)
    const extra = row.extra_info as (ReferenceRow['extra_info'] & { dataset?: string; stage?: string }) | null
    const id = extra?.source_id ?? `row ${index}`
    counts.push({ id, tokens: promptTokens })
    const task = options.tasks?.[String(extra?.dataset)]
    if (!task || !extra || extra.stage !== 'stage1') continue
    let reference = references.get(task)
    if (!reference) references.set(task, (reference = new ReferenceEpisodes(task)))
    const ground_truth = (row.reward_model as { ground_truth: string }).ground_truth
    const full = render([...prompt, ...reference.responseMessages({ prompt, ground_truth, extra_info: extra })], false)
    const base = full.startsWith(promptText) ? promptTokens : counter.count(render(prompt, false))
    responses.push({ id, tokens: counter.count(full) - base })
  }
  if (options.tasks) {
    const summary = summarize(responses, settings.max_response_length)
    responseSplits[split] = summary
    if (responses.length === 0) context.problems.push(`${split}: no stage1 rows to measure a response on`)
    if (summary.over_budget > 0)
      context.problems.push(
        `${split}: ${summary.over_budget} three-call reference episode(s) exceed max_response_length=${settings.max_response_length} (first: ${summary.first_over})`,
      )
  }
  return counts
}

/** SFT: each whole conversation; each row's `tools` and `enable_thinking` must be the run's. */
function measureSftSplit(context: BudgetContext, split: string, path: string): RowCount[] {
  const { options, format, counter, rolloutTools, problems } = context
  const expectedTools = JSON.stringify(rolloutTools)
  const counts: RowCount[] = []
  let toolMismatch = 0
  let thinkingMismatch = 0
  const onRow = (row: Record<string, unknown>, index: number) => {
    if (row.tools !== rolloutTools && JSON.stringify(row.tools) !== expectedTools) toolMismatch++
    if (row.enable_thinking !== options.settings.enable_thinking) thinkingMismatch++
    const text = format.render({
      messages: row.messages as ChatMessage[],
      tools: rolloutTools,
      addGenerationPrompt: false,
      enableThinking: row.enable_thinking === true,
    })
    counts.push({ id: typeof row.source_id === 'string' ? row.source_id : `row ${index}`, tokens: counter.count(text) })
  }
  if (options.mixture) {
    try {
      readTrajectoryMixtureRows(path, trajectoryMixtureColumns(rolloutTools, options.metadataFields)).rows.forEach(onRow)
    } catch (error) {
      problems.push(`${split}.parquet: ${(error as Error).message}`)
    }
  } else
    readTrajectoryRows({
      bytes: readFileSync(path),
      metadataFields: options.metadataFields,
      tools: rolloutTools,
      onRow,
      onError: (message) => problems.push(`${split}.parquet: ${message}`),
    })
  if (toolMismatch > 0) problems.push(`${split}: ${toolMismatch} row(s) carry tools other than the run's tool schemas`)
  if (thinkingMismatch > 0)
    problems.push(`${split}: ${thinkingMismatch} row(s) have enable_thinking ≠ ${options.settings.enable_thinking}`)
  return counts
}

function budgetResult(input: {
  context: BudgetContext
  budget: number
  splits: Record<string, SplitBudget>
  responseSplits: Record<string, SplitBudget>
}): CheckResult {
  const { context, budget, splits, responseSplits } = input
  const { options, problems } = context
  const settings = options.settings
  const limit = settings.kind === 'sft' ? 'max_length' : 'max_prompt_length'
  return {
    name: 'token_budget',
    passed: problems.length === 0,
    detail: problems.length === 0 ? `every row fits ${limit}=${budget}` : problems.join('; '),
    facts: {
      tokenizer: 'qwen3',
      template: context.format.id,
      limit,
      budget,
      splits,
      ...(options.tasks && settings.kind === 'rloo'
        ? {
            response: {
              limit: 'max_response_length',
              budget: settings.max_response_length,
              episode: 'search → details → examples → answer',
              splits: responseSplits,
            },
          }
        : {}),
    },
  }
}
