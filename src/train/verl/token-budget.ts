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

export async function checkTokenBudget(options: TokenBudgetOptions): Promise<CheckResult> {
  const { settings } = options
  const format = chatFormat('qwen3.5')
  const counter = new SegmentTokenCounter(await qwen3TokenCounter())
  const budget = settings.kind === 'sft' ? settings.max_length : settings.max_prompt_length
  // A VeRL rollout shows the schemas as its pydantic model keeps them; SFT rows carry that very view.
  const rolloutTools = verlVisibleTools(options.tools)
  const expectedTools = JSON.stringify(rolloutTools)
  const splits: Record<string, SplitBudget> = {}
  const responseSplits: Record<string, SplitBudget> = {}
  const references = new Map<GradingTask, ReferenceEpisodes>()
  const problems: string[] = []
  for (const split of budgetSplits) {
    const path = join(options.release, `${split}.parquet`)
    const counts: { id: string; tokens: number }[] = []
    if (settings.kind === 'rloo') {
      const file = await readParquetRows(path)
      const responses: { id: string; tokens: number }[] = []
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
        if (responses.length === 0) problems.push(`${split}: no stage1 rows to measure a response on`)
        if (summary.over_budget > 0)
          problems.push(
            `${split}: ${summary.over_budget} three-call reference episode(s) exceed max_response_length=${settings.max_response_length} (first: ${summary.first_over})`,
          )
      }
    } else {
      let toolMismatch = 0
      let thinkingMismatch = 0
      const onRow = (row: Record<string, unknown>, index: number) => {
        if (row.tools !== rolloutTools && JSON.stringify(row.tools) !== expectedTools) toolMismatch++
        if (row.enable_thinking !== settings.enable_thinking) thinkingMismatch++
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
        problems.push(`${split}: ${thinkingMismatch} row(s) have enable_thinking ≠ ${settings.enable_thinking}`)
    }
    splits[split] = summarize(counts, budget)
    if (counts.length === 0) problems.push(`${split}: no rows`)
    const summary = splits[split] as SplitBudget
    if (summary.over_budget > 0)
      problems.push(`${split}: ${summary.over_budget} row(s) exceed ${budget} tokens (first: ${summary.first_over})`)
  }
  const limit = settings.kind === 'sft' ? 'max_length' : 'max_prompt_length'
  return {
    name: 'token_budget',
    passed: problems.length === 0,
    detail: problems.length === 0 ? `every row fits ${limit}=${budget}` : problems.join('; '),
    facts: {
      tokenizer: 'qwen3',
      template: format.id,
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
